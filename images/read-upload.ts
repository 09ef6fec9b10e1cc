/**
 * The checks every uploaded picture passes before a pixel is decoded (avatars, room emotes):
 * its size in bytes, a header sharp reads, an accepted format, a width and frame height within
 * bounds and, for an animation, its frames and their pixels together. Each caller keeps its own
 * limits and words; the refusals name the field. The decode itself (`encodeUpload`) waits for
 * one of the process's decode slots (decode-slots.ts).
 *
 * sharp (with libvips) loads at the first upload, not with the service: 0.1 s of CPU that every
 * gateway start (and each test file's service) paid whether or not a picture came.
 */
import type { Metadata, Sharp } from 'sharp';
import { AppError } from '../errors/index.js';
import { imageDecodes } from './decode-slots.js';

export interface UploadRules {
  /** The request field the bytes came in, named by every refusal. */
  field: string;
  /** What the upload becomes, with its article, for the refusals: "an avatar". */
  what: string;
  maxBytes: number;
  /** sharp's format names. */
  formats: readonly string[];
  /** Width and frame height each, per frame. */
  maxSide: number;
  /** Every frame of a GIF or WebP; otherwise only the first (a still). */
  animated: boolean;
  /** With `animated`: frames, and decoded pixels of all frames together (also sharp's pixel limit, for a header that lies). */
  maxFrames?: number;
  maxTotalPixels?: number;
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
  const { default: sharp } = await import('sharp');
  const frames = rules.animated ? { animated: true } : { pages: 1 };
  let metadata: Metadata;
  try {
    // The header only: no pixel limit here, so a picture too large is refused below saying so.
    metadata = await sharp(bytes, { ...frames, failOn: 'error', limitInputPixels: false }).metadata();
  } catch {
    return refuseUpload(field, `is not a picture this service reads (${formats.join(', ')})`);
  }
  if (!formats.includes(metadata.format)) return refuseUpload(field, `is ${metadata.format}; ${what} is ${formats.join(', ')}`);
  const frameHeight = metadata.pageHeight ?? metadata.height;
  if (metadata.width > maxSide || frameHeight > maxSide) {
    return refuseUpload(field, `is ${metadata.width}x${frameHeight} pixels; at most ${maxSide}x${maxSide}`);
  }
  // sharp counts the pixels of every frame read: a still's one frame, or an animation's all.
  let limitInputPixels = maxSide * maxSide;
  if (rules.animated) {
    const pages = metadata.pages ?? 1;
    if (rules.maxFrames !== undefined && pages > rules.maxFrames) return refuseUpload(field, `has ${pages} frames; at most ${rules.maxFrames}`);
    const total = metadata.width * frameHeight * pages;
    limitInputPixels = Math.max(limitInputPixels, rules.maxTotalPixels ?? 0);
    if (total > limitInputPixels) {
      return refuseUpload(field, `has ${pages} frames of ${metadata.width}x${frameHeight}, ${total} pixels in all; at most ${limitInputPixels} pixels in all frames together`);
    }
  }
  const open = () => sharp(bytes, { ...frames, failOn: 'error', limitInputPixels });
  return { metadata, frameHeight, open };
}

/**
 * Runs the encoding of a checked upload in one of the process's decode slots: a failure there is
 * the file's (a header that reads over a truncated or corrupt body), refused like the checks; no
 * free slot is `busy` with a Retry-After.
 */
export function encodeUpload<T>(field: string, encode: () => Promise<T>): Promise<T> {
  return imageDecodes.run(async () => {
    try {
      return await encode();
    } catch {
      return refuseUpload(field, 'could not be decoded (truncated or corrupt)');
    }
  });
}
