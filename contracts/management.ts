/**
 * The management API spoken between `svc serve` and the `svc` CLI: JSON over HTTP/1.1 on a
 * Unix socket or a token-protected TCP port. Both sides import these names so they cannot
 * drift apart.
 */
import type { ReviewKind, ReviewMode, ReviewState, ReviewSummary, ReviewView } from './review.js';

/** An OAuth2 provider instance whose kind or issuer changed since the last settings load. */
export interface IssuerChange {
  instanceName: string;
  previous: { provider: OAuth2ProviderKind; issuer: string };
  current: { provider: OAuth2ProviderKind; issuer: string };
  message: string;
}

export type OAuth2ProviderKind = 'github' | 'oidc';

/** The media proxy's slice cache counters since start. */
export interface SliceCacheStats {
  hits: number;
  misses: number;
  bytesFromCache: number;
  bytesFromUpstream: number;
  evictions: number;
  revalidations: number;
  /** Slice fetches started ahead of a sequential reader (added with readahead). */
  readaheads: number;
  entries: number;
  sizeBytes: number;
  maxBytes: number;
}

export type { ReviewKind, ReviewMode, ReviewState, ReviewSummary, ReviewView };

/** Every response of the management endpoint carries this header, so the CLI can tell it
 *  reached a management endpoint and not, say, the public HTTP port. */
export const MANAGEMENT_HEADER = 'x-svc-management';
/** Who made a change, recorded in the settings history; the reviewer of a review decision. */
export const ACTOR_HEADER = 'x-svc-actor';

export const routes = {
  stats: '/v1/system/stats',
  settings: '/v1/settings',
  setting: (key: string) => `/v1/settings/${encodeURIComponent(key)}`,
  settingHistory: (key: string) => `/v1/settings/${encodeURIComponent(key)}/history`,
  settingsGroup: (group: string) => `/v1/settings/groups/${encodeURIComponent(group)}`,
  /** `GET ?kind=&mode=&state=&limit=` → `{reviews: ReviewSummary[]}` */
  reviews: '/v1/reviews',
  /** `GET` → ReviewView */
  review: (id: string) => `/v1/reviews/${encodeURIComponent(id)}`,
  /** `POST` ReviewDecisionRequest → ReviewView */
  reviewApprove: (id: string) => `/v1/reviews/${encodeURIComponent(id)}/approve`,
  /** `POST` ReviewDecisionRequest (reason required) → ReviewView */
  reviewReject: (id: string) => `/v1/reviews/${encodeURIComponent(id)}/reject`,
  /** `GET ?role=&state=&q=&limit=&cursor=` → UserListView */
  users: '/v1/users',
  /** `POST` CreateRootRequest → UserView (201). */
  userCreateRoot: '/v1/users/create-root',
  /** `POST` CreateRootOpaqueRequest → OpaqueRegistrationView: the server's message for the record CreateRootRequest carries. */
  userCreateRootOpaque: '/v1/users/create-root/opaque',
  /** `GET` → UserDetailView. A user is named by id or username. */
  user: (user: string) => `/v1/users/${encodeURIComponent(user)}`,
  /** `POST` BanRequest → UserChangeView */
  userBan: (user: string) => `/v1/users/${encodeURIComponent(user)}/ban`,
  /** `POST` {} → UserChangeView */
  userUnban: (user: string) => `/v1/users/${encodeURIComponent(user)}/unban`,
  /** `POST` SetRoleRequest → UserChangeView */
  userRole: (user: string) => `/v1/users/${encodeURIComponent(user)}/role`,
  /** `POST` ResetPasswordRequest → UserChangeView */
  userResetPassword: (user: string) => `/v1/users/${encodeURIComponent(user)}/reset-password`,
  /** `POST` OpaqueRegistrationRequest → OpaqueRegistrationView, for the record ResetPasswordRequest carries. */
  userResetPasswordOpaque: (user: string) => `/v1/users/${encodeURIComponent(user)}/reset-password/opaque`,
} as const;

export type UserRole = 'root' | 'admin' | 'user';
export type UserState = 'active' | 'banned';

export interface UserView {
  id: string;
  username: string;
  displayName: string;
  email: string | null;
  role: UserRole;
  state: UserState;
  createdAt: string;
  lastLoginAt: string | null;
}

export interface UserListView {
  users: UserView[];
  /** Pass as `cursor` for the next page; absent on the last. */
  nextCursor?: string;
}

/** Which credentials an account has, never what they hold. */
export interface UserDetailView {
  user: UserView;
  credentials: { password: 'opaque' | 'argon2' | null; passkeys: number; oauth2: string[] };
  twoFactor: { enabled: boolean; recoveryCodesLeft: number };
  liveSessions: number;
}

export interface UserChangeView {
  user: UserView;
  /** False when the account already was as asked. */
  changed: boolean;
  revokedSessions: number;
}

/**
 * A new password travels as an OPAQUE registration record the CLI made (the password never
 * leaves it), or as the password itself (stored as Argon2id, upgraded at the first sign-in).
 */
export type NewPasswordFields = { registrationRecord: string; password?: never } | { password: string; registrationRecord?: never };

/** The CLI's first OPAQUE registration message (`opaque.client.startRegistration`). */
export interface OpaqueRegistrationRequest {
  registrationRequest: string;
}

export interface CreateRootOpaqueRequest extends OpaqueRegistrationRequest {
  username: string;
}

/** What the CLI finishes its registration with. */
export interface OpaqueRegistrationView {
  registrationResponse: string;
}

export type CreateRootRequest = NewPasswordFields & {
  username: string;
  /** Required while a root exists. */
  allowAdditional?: boolean;
};

/** The reason goes to the service log with the operator's name. */
export interface BanRequest {
  reason?: string;
}

export interface SetRoleRequest {
  role: UserRole;
}

export type ResetPasswordRequest = NewPasswordFields;

/** The reviewer is the caller named by the actor header, not a field of the body. */
export interface ReviewDecisionRequest {
  reason?: string;
}

export interface SettingView {
  key: string;
  value: unknown;
  isDefault: boolean;
  version: number;
  updatedAt?: string;
  updatedBy?: string;
  type: string;
  rule: string;
  description: string;
}

export interface SettingChangeView {
  key: string;
  oldValue: unknown;
  newValue: unknown;
  version: number;
}

export interface SettingHistoryView {
  key: string;
  /** The effective value before the change: the default when the key had never been written. */
  oldValue: unknown;
  oldIsDefault: boolean;
  newValue: unknown;
  changedBy: string;
  source: string;
  replicaId?: string | null;
  changedAt: string;
}

/** The answer to a settings write. */
export interface UpdateSettingsAnswer {
  changes: SettingChangeView[];
  /** OAuth2 instances whose kind or issuer the write changed: their existing bindings no longer sign in. */
  oauth2IssuerChanges: IssuerChange[];
}

export interface UpdateSettingsRequest {
  /** Raw CLI text per setting name of the group (`--set name=value`). */
  set: Record<string, string>;
}

export interface SystemStats {
  version: string;
  deploymentMethod: string;
  replicaId: string;
  roles: string[];
  startedAt: string;
  uptimeSeconds: number;
  connectedClients: number;
  activeActors: number;
  memory: { rssBytes: number; heapUsedBytes: number; heapTotalBytes: number; externalBytes: number };
  dependencies: Array<{ name: string; ok: boolean; latencyMs?: number; error?: string }>;
  /** The media proxy's slice cache, on a gateway with `proxy_slice_cache.enabled`. */
  sliceCache?: SliceCacheStats;
}
