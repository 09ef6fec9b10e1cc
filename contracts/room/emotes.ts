/**
 * Custom room emotes (docs/2026-11-26-room-emotes.md): pictures a room's admins upload, written
 * `:name:` in chat and shown as the picture. Shared by the server and the web client.
 */
export const EMOTE_LIMITS = {
  /** Uploaded bytes (PNG, GIF or WebP). */
  maxBytes: 256 * 1024,
  /** Emotes one room keeps. */
  perRoom: 50,
  /** Decoded width and height of each frame, checked from the header before any pixel is decoded. */
  maxInputSide: 1024,
  /** Frames of an animated picture. */
  maxFrames: 200,
  /**
   * Decoded pixels of all frames together, a bound of its own (16 Mpx): 200 frames of 256x256
   * fit, and so do 16 frames at the 1024x1024 of one frame.
   */
  maxTotalPixels: 16 * 1024 * 1024,
  /** What is served: within this square, never enlarged. */
  servedSide: 128,
} as const;

export const EMOTE_FORMATS = ['png', 'gif', 'webp'] as const;

/** Lower-case letters, digits and underscores, 2 to 32 of them: what stands between the colons. */
export const EMOTE_NAME = /^[a-z0-9_]{2,32}$/;

/** `:name:` in chat text, with the name captured; the same rule as EMOTE_NAME. */
export const EMOTE_IN_TEXT = /:([a-z0-9_]{2,32}):/g;
