/**
 * The public surface of accounts/: what code outside accounts/ may import (lint refuses a deeper
 * import; tests may reach inside). docs/2026-11-29-public-surfaces.md.
 */
export { Accounts } from './accounts.js';
export { actorCallerOf } from './actor-caller.js';
export { logAdminAction } from './admin-audit.js';
export { type AdminActor } from './admin-policy.js';
export { purgeCodes } from './email/codes.js';
export { FLOW_TTL_SECONDS } from './methods/oauth2/flow-state.js';
export { issuerChangesOf } from './methods/oauth2/issuer-changes.js';
export { type StartRequest } from './methods/oauth2/oauth2-method.js';
export { type StoredPasskey } from './methods/webauthn-passkeys.js';
export { isAdmin, subjectOf, type Caller, type ServiceRole, type User, type UserCaller, type UserState } from './model.js';
export { OneTimeStore } from './one-time-store.js';
export { checkPassword } from './password-policy.js';
export { updateDisplayName } from './profile.js';
export { makeAvatar, type AvatarSize } from './profiles/avatar-image.js';
export { Avatars, avatarVersionUrl } from './profiles/avatars.js';
export { closeAccountRecords } from './profiles/close-account.js';
export { limited } from './rate-limits.js';
export { type SignupOutcome } from './registration.js';
export { type AccessTokens } from './sessions/access-tokens.js';
export { REVOCATION_MESSAGES, natsRevocationPublisher, parseRevocation, revocationSubject, type Revocation, type RevocationReason } from './sessions/revocation.js';
export { type SessionStore } from './sessions/session-store.js';
export { type ClientInfo, type GuestSignedIn, type SignInResult, type SignedIn } from './sign-in.js';
export { type UserAdmin, type UserChange } from './user-admin.js';
export { DEFAULT_PAGE, MAX_PAGE, describeUser, type UserDetails } from './user-directory.js';
export { usernameKey } from './username.js';
export { findUserById, isUuid, type Queryable } from './users.js';
