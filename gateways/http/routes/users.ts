import type { Accounts } from '../../../accounts/index.js';
import { updateDisplayName } from '../../../accounts/index.js';
import { makeAvatar } from '../../../accounts/index.js';
import { Avatars, avatarVersionUrl } from '../../../accounts/index.js';
import { describeUser } from '../../../accounts/index.js';
import { findUserById } from '../../../accounts/index.js';
import { AppError } from '../../../errors/index.js';
import * as api from '../../../contracts/http/users.js';
import type { EndpointRouter } from '../endpoint-router.js';
import { userView } from '../views.js';
import { clientOf } from './auth.js';

export function mountUserRoutes(router: EndpointRouter, accounts: Accounts): void {
  const avatars = new Avatars(accounts.deps.pool);
  const avatarView = (userId: string, hash: string) => ({ hash, large: avatarVersionUrl(userId, hash, 'large'), small: avatarVersionUrl(userId, hash, 'small') });
  router.mount(api.getMe, async (ctx, { caller }) => {
    if (caller.kind === 'guest') {
      ctx.body = { guest: { id: caller.guestId, displayName: caller.displayName } };
      return;
    }
    const user = await findUserById(accounts.deps.pool, caller.userId);
    if (!user) throw new AppError('unauthenticated', 'the account no longer exists');
    ctx.body = { user: userView(user) };
  })
    .mount(api.changePasswordOpaque, async (ctx, { caller, body }) => {
      ctx.set('Cache-Control', 'no-store');
      ctx.body = await accounts.passwordChange.opaqueStart(caller, body.registrationRequest);
    })
    .mount(api.changePassword, async (ctx, { caller, body }) => {
      ctx.body = await accounts.passwordChange.change(caller, body, clientOf(ctx));
    })
    .mount(api.updateMe, async (ctx, { caller, body }) => {
      ctx.body = { user: userView(await updateDisplayName(accounts.deps.pool, caller.userId, body.displayName)) };
    })
    .mount(api.getMyCredentials, async (ctx, { caller }) => {
      const user = await findUserById(accounts.deps.pool, caller.userId);
      if (!user) throw new AppError('unauthenticated', 'the account no longer exists');
      const details = await describeUser(accounts.deps.pool, user);
      ctx.set('Cache-Control', 'no-store');
      ctx.body = { ...details.credentials, twoFactor: details.twoFactor, liveSessions: details.liveSessions };
    })
    .mount(api.putMyAvatar, async (ctx, { caller, body }) => {
      // Counted before the decode it costs, refused pictures included.
      await accounts.limits.consume('avatarUploadsPerUser', caller.userId, 'avatar uploads');
      // Decoded and re-encoded before anything is written: a refused picture stores nothing.
      const images = await makeAvatar(Buffer.from(body.content, 'base64'));
      await avatars.put(caller.userId, images);
      ctx.body = { avatar: avatarView(caller.userId, images.hash) };
    })
    .mount(api.getMyAvatar, async (ctx, { caller }) => {
      const hash = await avatars.hashOf(caller.userId);
      ctx.set('Cache-Control', 'no-store');
      ctx.body = { avatar: hash === undefined ? null : avatarView(caller.userId, hash) };
    })
    .mount(api.deleteMyAvatar, async (ctx, { caller }) => {
      await avatars.remove(caller.userId);
      ctx.status = 204;
    });
}

