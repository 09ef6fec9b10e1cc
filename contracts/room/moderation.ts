/**
 * A room's chat moderation options as they cross the API: slow mode and the word filter
 * (docs/2026-11-26-chat-moderation.md). A leaf module (zod only), so the web client may import it.
 */
import { z } from 'zod';
import { oneLineText } from '../text.js';
import { ROOM_LIMITS } from './limits.js';

/** `mask` stars out a filtered word and lets the message through; `block` refuses the message. */
export const WORD_FILTER_MODES = ['mask', 'block'] as const;
export const WordFilterMode = z.enum(WORD_FILTER_MODES).meta({ id: 'WordFilterMode' });

export const WordFilter = z
  .strictObject({
    mode: WordFilterMode,
    words: z
      .array(z.string())
      .meta({ description: 'Words and phrases, lower-cased, in the order given; empty: the filter is off' }),
  })
  .meta({ id: 'WordFilter', description: "The room's word filter; only holders of edit_room_settings see it." });

/**
 * As a client sends it. Bounds count UTF-16 units to cap the work on hostile input; the room
 * checks each entry in characters (validate.ts checkWordFilter).
 */
export const wordFilterInput = z.strictObject({
  mode: WordFilterMode,
  words: z.array(oneLineText().max(ROOM_LIMITS.wordFilterEntryMaxChars * 2)).max(ROOM_LIMITS.wordFilterMaxEntries),
});

export const slowModeSeconds = z.number().int().min(0).max(ROOM_LIMITS.slowModeMaxSeconds);

export type WordFilterMode = z.infer<typeof WordFilterMode>;
export type WordFilter = z.infer<typeof WordFilter>;
