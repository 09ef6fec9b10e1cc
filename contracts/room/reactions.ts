/**
 * The fixed set of reactions, on chat messages and over the video. Fixed (not any emoji, not
 * a room's own emotes) so a reaction is a short name every client draws the same way, the
 * counts of a message stay bounded (8 kinds x members), and a name is safe in a URL path and a
 * proto string. Custom emotes are later work that would add names, not replace these.
 * A leaf module: the web client maps each name to its emoji.
 */
import { z } from 'zod';

export const REACTIONS = ['thumbs_up', 'heart', 'laugh', 'wow', 'sad', 'clap', 'fire', 'party'] as const;
export type ReactionName = (typeof REACTIONS)[number];

export const Reaction = z.enum(REACTIONS).meta({ id: 'Reaction', description: 'One of a fixed set of reactions' });

/** The emoji each name stands for, for clients that draw them. */
export const REACTION_EMOJI: Readonly<Record<ReactionName, string>> = Object.freeze({
  thumbs_up: '👍',
  heart: '❤️',
  laugh: '😂',
  wow: '😮',
  sad: '😢',
  clap: '👏',
  fire: '🔥',
  party: '🎉',
});
