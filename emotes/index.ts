/**
 * The public surface of emotes/: what code outside emotes/ may import (lint refuses a deeper
 * import; tests may reach inside). docs/2026-11-29-public-surfaces.md.
 */
export { makeEmote } from './emote-image.js';
export { RoomEmotes } from './room-emotes.js';
