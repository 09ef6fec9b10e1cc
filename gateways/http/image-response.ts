/**
 * Answers with a served picture (avatars, room emotes): only re-encoded WebP, under a URL that
 * names its version (images/version-hash.ts), so it is cached forever; with the media proxy's
 * CSP and nosniff, so a picture is never run or read as anything else.
 */
import type { Context } from 'koa';

const IMAGE_HEADERS = { 'Content-Security-Policy': "default-src 'none'", 'X-Content-Type-Options': 'nosniff' };

export function sendVersionedWebp(ctx: Context, bytes: Buffer): void {
  ctx.set(IMAGE_HEADERS);
  ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
  ctx.type = 'image/webp';
  ctx.body = bytes;
}
