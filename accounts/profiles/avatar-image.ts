import { createHash } from 'node:crypto';
import sharp, { type Metadata, type Sharp } from 'sharp';
import { AVATAR_MAX_BYTES } from '../../contracts/http/users.js';
import { AppError } from '../../errors/app-error.js';

/**
 * Turns an uploaded picture into the avatar the service serves: decoded, cropped to a square,
 * resized and re-encoded as WebP. The uploaded bytes are never kept or served, so metadata (EXIF
 * GPS, comments) is gone and a file crafted to be both an image and something else (a polyglot)
 * comes out as a plain image.
 */
export const AVATAR_LIMITS = {
  /** Uploaded bytes. */
  maxBytes: AVATAR_MAX_BYTES,
  /** Decoded width and height each; checked from the header before any pixel is decoded. */
  maxSide: 4096,
  /** The two sizes served: the account page and headers, and lists (members, chat). */
  largePx: 256,
  smallPx: 64,
} as const;

export const AVATAR_FORMATS = ['jpeg', 'png', 'webp', 'gif'] as const;
export type AvatarSize = 'large' | 'small';

export interface AvatarImages {
  /** Hex SHA-256 prefix of both encodings: the version the URL names. */
  hash: string;
  large: Buffer;
  small: Buffer;
}

const refuse = (message: string): never => {
  throw AppError.invalid([{ key: 'content', message }]);
};

export async function makeAvatar(bytes: Buffer): Promise<AvatarImages> {
  if (bytes.length > AVATAR_LIMITS.maxBytes) {
    throw new AppError('payload_too_large', `content is ${bytes.length} bytes, more than the ${AVATAR_LIMITS.maxBytes} an avatar may have`, [
      { key: 'content', message: `must be at most ${AVATAR_LIMITS.maxBytes} bytes` },
    ]);
  }
  // `pages: 1`: an animated GIF or WebP becomes its first frame. The pixel limit backs up the
  // side check for a header that lies.
  const open = () => sharp(bytes, { pages: 1, failOn: 'error', limitInputPixels: AVATAR_LIMITS.maxSide * AVATAR_LIMITS.maxSide });
  let metadata: Metadata;
  try {
    metadata = await open().metadata();
  } catch {
    return refuse(`is not a picture this service reads (${AVATAR_FORMATS.join(', ')})`);
  }
  if (!(AVATAR_FORMATS as readonly string[]).includes(metadata.format)) {
    return refuse(`is ${metadata.format}; an avatar is ${AVATAR_FORMATS.join(', ')}`);
  }
  if (metadata.width > AVATAR_LIMITS.maxSide || metadata.height > AVATAR_LIMITS.maxSide) {
    return refuse(`is ${metadata.width}x${metadata.height} pixels; at most ${AVATAR_LIMITS.maxSide}x${AVATAR_LIMITS.maxSide}`);
  }
  try {
    const [large, small] = await Promise.all([encode(open(), AVATAR_LIMITS.largePx), encode(open(), AVATAR_LIMITS.smallPx)]);
    const hash = createHash('sha256').update(large).update(small).digest('hex').slice(0, 24);
    return { hash, large, small };
  } catch {
    return refuse('could not be decoded (truncated or corrupt)');
  }
}

/** Upright (EXIF orientation applied), centre-cropped square, WebP; sharp writes no metadata unless asked. */
function encode(image: Sharp, side: number): Promise<Buffer> {
  return image.rotate().resize(side, side, { fit: 'cover', position: 'attention' }).webp({ quality: 82 }).toBuffer();
}
