/**
 * Turns an uploaded picture into the emote the service serves: decoded, fitted within a small
 * square (never enlarged), re-encoded as WebP with its animation kept. The uploaded bytes are
 * never kept or served, so metadata and anything a crafted file hid are gone.
 */
import { createHash } from 'node:crypto';
import sharp, { type Metadata } from 'sharp';
import { EMOTE_FORMATS, EMOTE_LIMITS } from '../../contracts/room/emotes.js';
import { AppError } from '../../errors/app-error.js';

export interface EmoteImage {
  /** Hex SHA-256 prefix of the encoding: the version its URL names. */
  hash: string;
  webp: Buffer;
  width: number;
  height: number;
  animated: boolean;
}

const refuse = (message: string): never => {
  throw AppError.invalid([{ key: 'content', message }]);
};

export async function makeEmote(bytes: Buffer): Promise<EmoteImage> {
  if (bytes.length > EMOTE_LIMITS.maxBytes) {
    throw new AppError('payload_too_large', `content is ${bytes.length} bytes, more than the ${EMOTE_LIMITS.maxBytes} an emote may have`, [
      { key: 'content', message: `must be at most ${EMOTE_LIMITS.maxBytes} bytes` },
    ]);
  }
  const side = EMOTE_LIMITS.maxInputSide;
  // `animated`: every frame of a GIF or WebP; the pixel limit (per frame) backs up the side check.
  const open = () => sharp(bytes, { animated: true, failOn: 'error', limitInputPixels: side * side });
  let metadata: Metadata;
  try {
    metadata = await open().metadata();
  } catch {
    return refuse(`is not a picture this service reads (${EMOTE_FORMATS.join(', ')})`);
  }
  if (!(EMOTE_FORMATS as readonly string[]).includes(metadata.format)) {
    return refuse(`is ${metadata.format}; an emote is ${EMOTE_FORMATS.join(', ')}`);
  }
  const frames = metadata.pages ?? 1;
  const frameHeight = metadata.pageHeight ?? metadata.height;
  if (metadata.width > side || frameHeight > side) return refuse(`is ${metadata.width}x${frameHeight} pixels; at most ${side}x${side}`);
  if (frames > EMOTE_LIMITS.maxFrames) return refuse(`has ${frames} frames; at most ${EMOTE_LIMITS.maxFrames}`);
  try {
    const fitted = EMOTE_LIMITS.servedSide;
    const { data, info } = await open()
      .resize(fitted, fitted, { fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 85, effort: 4 })
      .toBuffer({ resolveWithObject: true });
    const hash = createHash('sha256').update(data).digest('hex').slice(0, 24);
    return { hash, webp: data, width: info.width, height: info.pageHeight ?? info.height, animated: frames > 1 };
  } catch {
    return refuse('could not be decoded (truncated or corrupt)');
  }
}
