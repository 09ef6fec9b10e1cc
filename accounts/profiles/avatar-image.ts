import type { Sharp } from 'sharp';
import { AVATAR_MAX_BYTES } from '../../contracts/http/users.js';
import { encodeUpload, readImageUpload } from '../../images/read-upload.js';
import { versionHash } from '../../images/version-hash.js';

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

export async function makeAvatar(bytes: Buffer): Promise<AvatarImages> {
  // Not animated: a GIF or WebP becomes its first frame.
  const upload = await readImageUpload(bytes, {
    field: 'content',
    what: 'an avatar',
    maxBytes: AVATAR_LIMITS.maxBytes,
    formats: AVATAR_FORMATS,
    maxSide: AVATAR_LIMITS.maxSide,
    animated: false,
  });
  return encodeUpload('content', async () => {
    const [large, small] = await Promise.all([encode(upload.open(), AVATAR_LIMITS.largePx), encode(upload.open(), AVATAR_LIMITS.smallPx)]);
    return { hash: versionHash(large, small), large, small };
  });
}

/** Upright (EXIF orientation applied), centre-cropped square, WebP; sharp writes no metadata unless asked. */
function encode(image: Sharp, side: number): Promise<Buffer> {
  return image.rotate().resize(side, side, { fit: 'cover', position: 'attention' }).webp({ quality: 82 }).toBuffer();
}
