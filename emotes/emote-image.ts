/**
 * Turns an uploaded picture into the emote the service serves: decoded, fitted within a small
 * square (never enlarged), re-encoded as WebP with its animation kept. The uploaded bytes are
 * never kept or served, so metadata and anything a crafted file hid are gone.
 */
import { EMOTE_FORMATS, EMOTE_LIMITS } from '../contracts/room/emotes.js';
import { encodeUpload, readImageUpload } from '../images/index.js';
import { versionHash } from '../images/index.js';

export interface EmoteImage {
  /** Hex SHA-256 prefix of the encoding: the version its URL names. */
  hash: string;
  webp: Buffer;
  width: number;
  height: number;
  animated: boolean;
}

export async function makeEmote(bytes: Buffer): Promise<EmoteImage> {
  // Animated: every frame of a GIF or WebP is read, checked and kept.
  const upload = await readImageUpload(bytes, {
    field: 'content',
    what: 'an emote',
    maxBytes: EMOTE_LIMITS.maxBytes,
    formats: EMOTE_FORMATS,
    maxSide: EMOTE_LIMITS.maxInputSide,
    animated: true,
    // Per frame above, and these for the whole animation: a frame's bound times the frame
    // count would refuse any animation larger than one frame at the cap.
    maxFrames: EMOTE_LIMITS.maxFrames,
    maxTotalPixels: EMOTE_LIMITS.maxTotalPixels,
  });
  const frames = upload.metadata.pages ?? 1;
  return encodeUpload('content', async () => {
    const fitted = EMOTE_LIMITS.servedSide;
    const { data, info } = await upload
      .open()
      .resize(fitted, fitted, { fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 85, effort: 4 })
      .toBuffer({ resolveWithObject: true });
    return { hash: versionHash(data), webp: data, width: info.width, height: info.pageHeight ?? info.height, animated: frames > 1 };
  });
}
