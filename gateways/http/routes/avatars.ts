/**
 * Avatars, outside `/api` because an <img> sends no bearer token (docs/2026-11-26-profiles-and-accounts.md):
 *   /media/avatars/<userId>/large|small               302 to the current version, or 204 none
 *   /media/avatars/<userId>/<hash>/large|small.webp   the bytes, cached forever
 * Public like a profile picture anywhere: whoever knows a user id (room members do) may see it.
 * Only re-encoded WebP is ever served (image-response.ts). "None" is 204 No Content rather than
 * 404: the client shows initials under every <img>, asks for everyone it shows, and a browser
 * logs each 404 image as a console error (Lighthouse's best-practices audit fails on it), while
 * an empty 204 only fires the image's error event.
 */
import Router from '@koa/router';
import { isUuid, type Queryable } from '../../../accounts/index.js';
import { Avatars, avatarVersionUrl } from '../../../accounts/index.js';
import type { AvatarSize } from '../../../accounts/index.js';
import { AppError } from '../../../errors/index.js';
import { isVersionHash } from '../../../images/index.js';
import { sendVersionedWebp } from '../image-response.js';
import type { HttpState } from '../state.js';

function sizeOf(raw: string): AvatarSize {
  if (raw === 'large' || raw === 'small') return raw;
  throw new AppError('not_found', `an avatar comes in large and small, not "${raw.slice(0, 32)}"`);
}

function noAvatar(): AppError {
  return new AppError('not_found', 'this user has no avatar');
}

export function avatarRoutes(db: Queryable): Router<HttpState> {
  const avatars = new Avatars(db);
  const router = new Router<HttpState>({ prefix: '/media/avatars' });

  router.get('/:userId/:size', async (ctx) => {
    const { userId, size } = ctx.params as { userId: string; size: string };
    const which = sizeOf(size);
    if (!isUuid(userId)) throw noAvatar();
    const hash = await avatars.hashOf(userId);
    // Revalidated every time, so a new upload shows at once; the target is what is cached.
    ctx.set('Cache-Control', 'no-cache');
    if (hash === undefined) {
      ctx.status = 204;
      return;
    }
    ctx.redirect(avatarVersionUrl(userId, hash, which));
  });

  router.get('/:userId/:hash/:file', async (ctx) => {
    const { userId, hash, file } = ctx.params as { userId: string; hash: string; file: string };
    const which = sizeOf(file.endsWith('.webp') ? file.slice(0, -'.webp'.length) : file);
    const bytes = isUuid(userId) && isVersionHash(hash) ? await avatars.image(userId, hash, which) : undefined;
    if (bytes === undefined) throw noAvatar();
    sendVersionedWebp(ctx, bytes);
  });

  return router;
}
