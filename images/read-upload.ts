/**
 * The checks every uploaded picture passes before a pixel is decoded (avatars, room emotes):
 * its size in bytes, a header sharp reads, an accepted format, and a width and frame height
 * within bounds. Each caller keeps its own limits and words; the refusals name the field.
 */
import sharp, { type Metadata, type Sharp } from 'sharp';
import { AppError } from '../errors/app-error.js';

export interface UploadRules {
  /** The request field the bytes came in, named by every refusal. */
  field: string;
  /** What the upload becomes, with its article, for the refusals: "an avatar". */
  what: string;
  maxBytes: number;
  /** sharp's format names. */
  formats: readonly string[];
  /** Width and frame height each; also sharp's pixel limit (per frame), for a header that lies. */
  maxSide: number;
  /** Every frame of a GIF or WebP; otherwise only the first (a still). */
  animated: boolean;
}

export interface ImageUpload {
  metadata: Metadata;
  /** One frame's height (the whole height of a still). */
  frameHeight: number;
  /** A fresh pipeline over the bytes, read as checked, for encoding. */
  open(): Sharp;
}

/** Refuses the upload with one issue on its field. */
export function refuseUpload(field: string, message: string): never {
  throw AppError.invalid([{ key: field, message }]);
}

export async function readImageUpload(bytes: Buffer, rules: UploadRules): Promise<ImageUpload> {
  const { field, what, maxBytes, formats, maxSide } = rules;
  if (bytes.length > maxBytes) {
    throw new AppError('payload_too_large', `${field} is ${bytes.length} bytes, more than the ${maxBytes} ${what} may have`, [
      { key: field, message: `must be at most ${maxBytes} bytes` },
    ]);
  }
  const frames = rules.animated ? { animated: true } : { pages: 1 };
  const open = () => sharp(bytes, { ...frames, failOn: 'error', limitInputPixels: maxSide * maxSide });
  let metadata: Metadata;
  try {
    metadata = await open().metadata();
  } catch {
    return refuseUpload(field, `is not a picture this service reads (${formats.join(', ')})`);
  }
  if (!formats.includes(metadata.format)) return refuseUpload(field, `is ${metadata.format}; ${what} is ${formats.join(', ')}`);
  const frameHeight = metadata.pageHeight ?? metadata.height;
  if (metadata.width > maxSide || frameHeight > maxSide) {
    return refuseUpload(field, `is ${metadata.width}x${frameHeight} pixels; at most ${maxSide}x${maxSide}`);
  }
  return { metadata, frameHeight, open };
}

/**
 * Runs the encoding of a checked upload: a failure there is the file's (a header that reads
 * over a truncated or corrupt body), refused like the checks.
 */
export async function encodeUpload<T>(field: string, encode: () => Promise<T>): Promise<T> {
  try {
    return await encode();
  } catch {
    return refuseUpload(field, 'could not be decoded (truncated or corrupt)');
  }
}
