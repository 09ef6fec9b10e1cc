/**
 * What plays after the current item ends, by the room's queue mode. Pure: the actor asks it
 * once per accepted end report (queue-handlers.ts `ended`) and applies the answer, so every
 * viewer moves together (docs/2026-11-26-queue-modes.md).
 */
import type { MediaItem, QueueMode } from '../../../contracts/room/model.js';
import { indexOfMedia, type PlaylistEntry } from '../records.js';
import { mostVoted } from './queue-votes.js';

/**
 * Lead of the start the room schedules for what plays next: every viewer must receive the
 * change and load the item (or seek back to 0 for a repeat) before the instant. Within
 * ROOM_LIMITS.startInMaxMs; above the web client's own lead for a play (250-1000 ms) because a
 * new item also has to load.
 */
export const QUEUE_START_LEAD_MS = 1500;

/**
 * How far before the reported length the room's own clock may be when an end is accepted:
 * players drift a few ms from the room and a report travels, so a player at its end finds the
 * room a hair before it. This is also the most a false report can cut from an item.
 */
export const END_TOLERANCE_SECONDS = 2;

/** The item to play from its start, or null: the room stops at the end of `currentId`. */
export function followingItem(
  mode: QueueMode,
  playlist: readonly PlaylistEntry[],
  currentId: string,
  random: () => number = Math.random,
  /** Up-votes per item, for the `vote` mode. */
  votes: (mediaId: string) => number = () => 0,
): MediaItem | null {
  const index = indexOfMedia(playlist, currentId);
  const current = playlist[index]?.item ?? null;
  switch (mode) {
    case 'stop':
      return null;
    case 'repeat_one':
      return current;
    case 'next':
      return playlist[index + 1]?.item ?? null;
    case 'repeat_all':
      return (playlist[index + 1] ?? playlist[0])?.item ?? null;
    case 'vote':
      // The most up-voted other item (ties: playlist order); with no votes, as `next`.
      return (mostVoted(playlist, currentId, votes) ?? playlist[index + 1])?.item ?? null;
    case 'shuffle': {
      // Any other item, uniformly; a list of one plays it again (the mode never runs dry).
      const others = playlist.filter((e) => e.item.id !== currentId);
      if (others.length === 0) return current;
      return (others[Math.floor(random() * others.length)] as PlaylistEntry).item;
    }
  }
}

/**
 * What a skip plays (a vote to skip reached its threshold): the queue mode's choice, but never
 * the skipped item again, and a mode that would keep it (stop, repeat this item) plays the next.
 */
export function skipTarget(
  mode: QueueMode,
  playlist: readonly PlaylistEntry[],
  currentId: string,
  votes: (mediaId: string) => number = () => 0,
): MediaItem | null {
  if (mode === 'stop' || mode === 'repeat_one') return playlist[indexOfMedia(playlist, currentId) + 1]?.item ?? null;
  const following = followingItem(mode, playlist, currentId, Math.random, votes);
  return following?.id === currentId ? null : following;
}
