import { AVATAR_MAX_BYTES, AVATAR_MAX_SIDE } from '../../contracts/http/users.js';
import { encodeUpload, readImageUpload } from '../../images/index.js';
import { versionHash } from '../../images/index.js';

/**
 * Turns an uploaded picture into the avatar the service serves: decoded once, cropped to a
 * square, resized and re-encoded as WebP. The uploaded bytes are never kept or served, so metadata (EXIF
 * GPS, comments) is gone and a file crafted to be both an image and something else (a polyglot)
 * comes out as a plain image.
 */
export const AVATAR_LIMITS = {
  /** Uploaded bytes. */
  maxBytes: AVATAR_MAX_BYTES,
  /**
   * Decoded width and height each, checked from the header before any pixel is decoded, and
   * sharp's pixel limit (4 Mpx) for a header that lies. Eight times the served 256 px each way:
   * enough for any avatar; a phone photo (12 Mpx) is scaled down by the web client first.
   */
  maxSide: AVATAR_MAX_SIDE,
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
    // One decode: the upload is read once into the large square, and the small one is made
    // from that (64 of 256 px), not from the upload again.
    const { data, info } = await upload
      .open()
      .rotate()
      .resize(AVATAR_LIMITS.largePx, AVATAR_LIMITS.largePx, { fit: 'cover', position: 'attention' })
      .raw()
      .toBuffer({ resolveWithObject: true });
    // Loaded by readImageUpload already (sharp loads at the first upload).
    const { default: sharp } = await import('sharp');
    const square = () => sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } });
    const large = await square().webp({ quality: 82 }).toBuffer();
    const small = await square().resize(AVATAR_LIMITS.smallPx, AVATAR_LIMITS.smallPx).webp({ quality: 82 }).toBuffer();
    return { hash: versionHash(large, small), large, small };
  });
}
