/** The current user (`/api/me`). A leaf module (zod and the error codes only). */
import { z } from 'zod';
import { fields, RECENT_SIGN_IN_RULE, recentSignInProof } from './account-fields.js';
import { UserView } from './user-view.js';
import { defineEndpoint } from './endpoint.js';

export const getMe = defineEndpoint({
  method: 'get',
  path: '/api/me',
  operationId: 'getMe',
  summary: 'The signed-in user, or the guest',
  tags: ['users'],
  access: 'user_or_guest',
  responses: {
    200: {
      description: 'Who the access token belongs to',
      schema: z.object({ user: UserView.optional(), guest: z.object({ id: z.string(), displayName: z.string() }).optional() }),
    },
  },
  errors: ['unauthenticated'],
});

export const changePasswordOpaque = defineEndpoint({
  method: 'post',
  path: '/api/me/password/opaque',
  operationId: 'changePasswordOpaque',
  summary: 'Password change under OPAQUE: the server registration message',
  description: 'Needs a sign-in within the last 10 minutes.',
  tags: ['users'],
  access: 'user',
  body: z.strictObject({ registrationRequest: fields.opaqueMessage.registrationRequest }),
  responses: { 200: { description: 'The server registration response', schema: z.object({ registrationResponse: z.string() }) } },
  errors: ['unauthenticated'],
});

export const changePassword = defineEndpoint({
  method: 'post',
  path: '/api/me/password',
  operationId: 'changePassword',
  summary: 'Change the password; every other session is signed out',
  description:
    'An account with a direct-transport password sends currentPassword; otherwise (OPAQUE, or a first password) the session must have signed in within the last 10 minutes.',
  tags: ['users'],
  access: 'user',
  body: z.strictObject({ currentPassword: fields.password.optional(), password: fields.newPassword.optional(), registrationRecord: fields.opaqueMessage.registrationRecord.optional() }),
  responses: { 200: { description: 'Changed', schema: z.object({ revokedSessions: z.number().int() }) } },
  errors: ['unauthenticated', 'rate_limited'],
});

export const updateMe = defineEndpoint({
  method: 'patch',
  path: '/api/me',
  operationId: 'updateMe',
  summary: 'Change the signed-in user\'s profile (display name)',
  description: 'Rooms show the new name from the next command the user sends to them.',
  tags: ['users'],
  access: 'user',
  body: z.strictObject({
    displayName: fields.displayName.meta({ description: '1..64 characters after trimming; no control or bidi-override characters' }),
  }),
  responses: { 200: { description: 'The user now', schema: z.object({ user: UserView }) } },
  errors: ['unauthenticated'],
});

export const CredentialsOverview = z
  .object({
    password: z.enum(['opaque', 'argon2']).nullable().meta({ description: 'Which kind of password the account has, if any' }),
    passkeys: z.number().int(),
    oauth2: z.array(z.string()).meta({ description: 'OAuth2 provider instances bound to the account' }),
    twoFactor: z.object({ enabled: z.boolean(), recoveryCodesLeft: z.number().int() }),
    liveSessions: z.number().int(),
  })
  .meta({ id: 'CredentialsOverview', description: 'What the account signs in with, by kind; never a secret.' });

export const getMyCredentials = defineEndpoint({
  method: 'get',
  path: '/api/me/credentials',
  operationId: 'getMyCredentials',
  summary: 'What the signed-in user signs in with: password kind, passkeys, OAuth2 bindings, 2FA',
  tags: ['users'],
  access: 'user',
  responses: { 200: { description: 'The overview', schema: CredentialsOverview } },
  errors: ['unauthenticated'],
});

/** Avatar upload limits (accounts/profiles/avatar-image.ts decodes within them; the web client scales a larger picture down first). */
export const AVATAR_MAX_BYTES = 5 * 1024 * 1024;
/** Width and height each: 4 Mpx at most, eight times the served 256 px each way. */
export const AVATAR_MAX_SIDE = 2048;
/** Uploads per user, refused ones included (accounts/rate-limits.ts counts them in Redis). */
export const AVATAR_UPLOAD_RATE = { points: 10, durationSeconds: 10 * 60 } as const;
const AVATAR_CONTENT_MAX_CHARS = Math.ceil(AVATAR_MAX_BYTES / 3) * 4;

export const AvatarView = z
  .strictObject({
    hash: z.string().meta({ description: 'The version: a new upload is a new hash' }),
    large: z.string().meta({ description: 'URL of the 256x256 WebP (immutable)' }),
    small: z.string().meta({ description: 'URL of the 64x64 WebP (immutable)' }),
  })
  .meta({ id: 'Avatar', description: 'Any user\'s current avatar is also at /media/avatars/{userId}/large|small, a redirect to these, or 204 No Content when none.' });

export const putMyAvatar = defineEndpoint({
  method: 'put',
  path: '/api/me/avatar',
  operationId: 'putMyAvatar',
  summary: 'Upload your avatar (JPEG, PNG, WebP or GIF; re-encoded on the server)',
  description: `The picture's bytes in base64: at most ${AVATAR_MAX_BYTES} bytes and ${AVATAR_MAX_SIDE}x${AVATAR_MAX_SIDE} pixels (scale a larger one down first). It is cropped to a square, resized to 256 and 64 pixels and re-encoded as WebP (metadata such as GPS removed; an animation keeps its first frame); the uploaded bytes are not kept. At most ${AVATAR_UPLOAD_RATE.points} uploads per user in ${AVATAR_UPLOAD_RATE.durationSeconds / 60} minutes, refused ones included (rate_limited with Retry-After); resource_exhausted with Retry-After while the server decodes too many pictures at once.`,
  tags: ['users'],
  access: 'user',
  bodyLimit: `${Math.ceil((AVATAR_CONTENT_MAX_CHARS + 1024) / 1024)}kb`,
  body: z.strictObject({
    content: z.base64().min(1).max(AVATAR_CONTENT_MAX_CHARS).meta({ description: `The picture, base64; at most ${AVATAR_MAX_BYTES} bytes once decoded` }),
  }),
  responses: { 200: { description: 'The avatar now', schema: z.strictObject({ avatar: AvatarView }) } },
  errors: ['unauthenticated', 'payload_too_large', 'rate_limited', 'resource_exhausted'],
});

export const getMyAvatar = defineEndpoint({
  method: 'get',
  path: '/api/me/avatar',
  operationId: 'getMyAvatar',
  summary: 'Your avatar\'s URLs, or null when you have none',
  tags: ['users'],
  access: 'user',
  responses: { 200: { description: 'The avatar', schema: z.strictObject({ avatar: AvatarView.nullable() }) } },
  errors: ['unauthenticated'],
});

export const deleteMyAvatar = defineEndpoint({
  method: 'delete',
  path: '/api/me/avatar',
  operationId: 'deleteMyAvatar',
  summary: 'Remove your avatar (rooms show your initials again)',
  tags: ['users'],
  access: 'user',
  responses: { 204: { description: 'Removed, or there was none' } },
  errors: ['unauthenticated'],
});

export const closeMyAccount = defineEndpoint({
  method: 'post',
  path: '/api/me/close',
  operationId: 'closeMyAccount',
  summary: 'Close your account: every session ends and your data is removed or anonymised',
  description: `Rooms you own go to another member with an account (a room admin first) or are deleted when nobody else is in them; your memberships end; your chat messages stay, shown as "Former member"; playlist items and subtitle files you added stay with their rooms; credentials, passkeys, provider bindings, two-factor, avatar, personal libraries and notifications are deleted. The username is never given out again. A root account cannot be closed (another root makes it an ordinary user first). confirmUsername must be your username. ${RECENT_SIGN_IN_RULE}`,
  tags: ['users'],
  access: 'user',
  body: z.strictObject({
    ...recentSignInProof,
    confirmUsername: z.string().max(64).meta({ description: 'Your username, typed again: guards against a slip' }),
  }),
  responses: {
    200: {
      description: 'Closed: the access token no longer works',
      schema: z.strictObject({
        closed: z.strictObject({
          roomsLeft: z.number().int(),
          roomsTransferred: z.number().int(),
          roomsDeleted: z.number().int(),
          anonymisedMessages: z.number().int(),
          revokedSessions: z.number().int(),
        }),
      }),
    },
  },
  errors: ['unauthenticated', 'forbidden', 'rate_limited', 'unavailable', 'busy', 'deadline_exceeded'],
});
