/**
 * Every runtime setting of spec section 2.1, in spec order. Storage, replica sync, the
 * management API and the CLI all go through these definitions, so a value that passes
 * `validate` here is a value the rest of the service can rely on. Startup-only options
 * (ports, secrets, cache enablement, ...) are deliberately absent: see `config/`.
 */
import type { SettingDefinition } from './definition.js';
import {
  BUILTIN_ADMIN_PERMISSIONS,
  BUILTIN_GUEST_PERMISSIONS,
  BUILTIN_MEMBER_PERMISSIONS,
} from '../permissions/defaults.js';
import type { Permission } from '../permissions/names.js';
import { CORS_ORIGINS_RULE, checkCorsOrigins } from './rules/cors-origins.js';
import { EMAIL_ALLOWLIST_RULE, checkEmailAllowlist } from './rules/email-allowlist.js';
import { ICE_SERVERS_RULE, checkIceServers, type IceServer } from './rules/ice-servers.js';
import {
  OAUTH2_PROVIDERS_RULE,
  checkOAuth2Providers,
  type OAuth2ProviderSettings,
} from './rules/oauth2-providers.js';
import { PASSWORD_POLICY_RULE, checkPasswordPolicy, type PasswordPolicy } from './rules/password-policy.js';
import {
  GUEST_PERMISSION_LIST_RULE,
  PERMISSION_LIST_RULE,
  checkGuestPermissionList,
  checkPermissionList,
} from './rules/permission-list.js';
import { PUBLISH_HOST_RULE, checkPublishHost } from './rules/publish-host.js';
import {
  booleanSetting,
  enumSetting,
  integerSetting,
  jsonSetting,
  stringSetting,
  type SettingBody,
} from './rules/setting-kinds.js';

export type { IceServer } from './rules/ice-servers.js';
export type {
  GithubProviderSettings,
  OAuth2ProviderSettings,
  OidcProviderSettings,
} from './rules/oauth2-providers.js';
export type { PasswordPolicy } from './rules/password-policy.js';

export interface SettingValues {
  'server.allowRoomCreation': boolean;
  'server.maxRoomsPerUser': number;
  'server.maxMembersPerRoom': number;
  'server.maxChatMessages': number;
  'permissions.adminDefaultPermissions': Permission[];
  'permissions.memberDefaultPermissions': Permission[];
  'permissions.guestDefaultPermissions': Permission[];
  'room.disableCreateRoom': boolean;
  'room.createRoomNeedReview': boolean;
  'room.passwordPolicy': PasswordPolicy;
  'user.enablePasswordSignup': boolean;
  'user.passwordSignupNeedReview': boolean;
  'user.enableEmailSignup': boolean;
  'user.emailSignupNeedReview': boolean;
  'user.enableWebauthnSignup': boolean;
  'user.webauthnSignupNeedReview': boolean;
  'user.enableGuest': boolean;
  'oauth2.providers': OAuth2ProviderSettings[];
  'proxy.movieProxy': boolean;
  'proxy.liveProxy': boolean;
  'rtmp.customPublishHost': string;
  'rtmp.tsDisguisedAsPng': boolean;
  'email.whitelistEnabled': boolean;
  'email.whitelistDomains': string;
  'webrtc.externalIceServers': IceServer[];
  'chat.maxMessagesPerRoom': number;
  'chat.maxPinnedMessagesPerRoom': number;
  'chat.messageRetentionDays': number;
  'cors.allowedOrigins': string[];
}

export type SettingKey = keyof SettingValues;

// The mapped type makes a key without a definition (or with the wrong value type) a compile
// error; the literal's order is the spec's order and is what `settings list` shows.
const SETTINGS: { readonly [K in SettingKey]: SettingBody<SettingValues[K]> } = {
  'server.allowRoomCreation': booleanSetting({ default: true, description: 'Whether users can create rooms' }),
  'server.maxRoomsPerUser': integerSetting({
    type: 'i64',
    range: { min: 1, max: 1000 },
    default: 10,
    description: 'Maximum rooms per user',
  }),
  'server.maxMembersPerRoom': integerSetting({
    type: 'i64',
    range: { min: 1, max: 10000 },
    default: 100,
    description: 'Maximum members per room',
  }),
  'server.maxChatMessages': integerSetting({
    type: 'u64',
    range: { min: 0, max: 10000, zeroMeansUnlimited: true },
    default: 500,
    description: 'Service-level public chat message cap policy; cleanup itself uses chat.maxMessagesPerRoom',
  }),

  'permissions.adminDefaultPermissions': jsonSetting({
    default: [...BUILTIN_ADMIN_PERMISSIONS],
    description: 'Global default permissions of a room admin',
    rule: PERMISSION_LIST_RULE,
    validate: checkPermissionList,
    example: '["send_chat","view_chat_history"]',
  }),
  'permissions.memberDefaultPermissions': jsonSetting({
    default: [...BUILTIN_MEMBER_PERMISSIONS],
    description: 'Global default permissions of a room member',
    rule: PERMISSION_LIST_RULE,
    validate: checkPermissionList,
    example: '["send_chat","view_chat_history"]',
  }),
  'permissions.guestDefaultPermissions': jsonSetting({
    default: [...BUILTIN_GUEST_PERMISSIONS],
    description: 'Global default permissions of a room guest',
    rule: GUEST_PERMISSION_LIST_RULE,
    validate: checkGuestPermissionList,
    example: '["view_member_list","view_chat_history"]',
  }),

  'room.disableCreateRoom': booleanSetting({ default: false, description: 'Disable room creation' }),
  'room.createRoomNeedReview': booleanSetting({ default: false, description: 'Room creation requires review' }),
  'room.passwordPolicy': enumSetting<PasswordPolicy>({
    default: 'optional',
    description: 'Room password policy',
    rule: PASSWORD_POLICY_RULE,
    validate: checkPasswordPolicy,
  }),

  'user.enablePasswordSignup': booleanSetting({
    default: false,
    description: 'Allow local password signup (OPAQUE registration and direct password transport)',
  }),
  'user.passwordSignupNeedReview': booleanSetting({ default: false, description: 'Password signup requires review' }),
  'user.enableEmailSignup': booleanSetting({
    default: false,
    description: 'Allow email registration, where confirmation sets local password credentials',
  }),
  'user.emailSignupNeedReview': booleanSetting({ default: false, description: 'Email signup requires review' }),
  'user.enableWebauthnSignup': booleanSetting({
    default: false,
    description: 'Allow WebAuthn/passkey as the initial registration method (binding a passkey later is not signup)',
  }),
  'user.webauthnSignupNeedReview': booleanSetting({
    default: false,
    description: 'WebAuthn signup requires review; approval creates the account with its pending passkey',
  }),
  'user.enableGuest': booleanSetting({ default: true, description: 'Allow guest capability' }),

  'oauth2.providers': jsonSetting<OAuth2ProviderSettings[]>({
    default: [],
    description: 'Registry of OAuth2/OIDC provider instances; an absent instance has no login entry point',
    rule: OAUTH2_PROVIDERS_RULE,
    validate: checkOAuth2Providers,
    example:
      '[{"instanceName":"github","enableSignup":true,"github":{"clientId":"...","clientSecret":"...","redirectUrl":"https://svc.example.com/oauth2/callback/github"}}]',
  }),

  'proxy.movieProxy': booleanSetting({ default: true, description: 'Allow media proxy paths' }),
  'proxy.liveProxy': booleanSetting({ default: true, description: 'Allow livestream proxy paths' }),

  'rtmp.customPublishHost': stringSetting({
    default: '',
    description: 'Custom publish host returned to stream publishers; empty uses the server address',
    rule: PUBLISH_HOST_RULE,
    validate: checkPublishHost,
  }),
  'rtmp.tsDisguisedAsPng': booleanSetting({ default: false, description: 'Disguise TS segments as PNG paths or responses' }),

  'email.whitelistEnabled': booleanSetting({
    default: false,
    description: 'Enable the email allowlist; an empty list rejects no domain',
  }),
  'email.whitelistDomains': stringSetting({
    default: '',
    description: 'Comma-separated domains or email addresses allowed to sign up by email',
    rule: EMAIL_ALLOWLIST_RULE,
    validate: checkEmailAllowlist,
  }),

  'webrtc.externalIceServers': jsonSetting<IceServer[]>({
    default: [{ urls: ['stun:stun.l.google.com:19302'] }, { urls: ['stun:stun1.l.google.com:19302'] }],
    description: 'External ICE servers returned to native clients',
    rule: ICE_SERVERS_RULE,
    validate: checkIceServers,
    example: '[{"urls":["stun:stun.example.com:3478"]}]',
  }),

  'chat.maxMessagesPerRoom': integerSetting({
    type: 'u64',
    range: { min: 0, max: 100000, zeroMeansUnlimited: true },
    default: 500,
    description: 'Maximum retained chat messages per room',
  }),
  'chat.maxPinnedMessagesPerRoom': integerSetting({
    type: 'u64',
    range: { min: 0, max: 1000 },
    default: 20,
    description: 'Maximum retained pinned chat messages per room',
  }),
  'chat.messageRetentionDays': integerSetting({
    type: 'i64',
    range: { min: 1, max: 3650 },
    default: 90,
    description: 'Maximum age of retained chat messages, in days',
  }),

  'cors.allowedOrigins': jsonSetting<string[]>({
    default: [],
    description: 'Runtime CORS allowed origins for proxy-related paths (separate from server.cors_allowed_origins)',
    rule: CORS_ORIGINS_RULE,
    validate: checkCorsOrigins,
    example: '["https://watch.example.com"]',
  }),
};

export const settingDefinitions: readonly SettingDefinition[] = Object.freeze(
  Object.entries(SETTINGS).map(([key, body]): SettingDefinition => {
    const dot = key.indexOf('.');
    return Object.freeze({ ...(body as SettingBody<unknown>), key, group: key.slice(0, dot), name: key.slice(dot + 1) });
  }),
);

const BY_KEY: ReadonlyMap<string, SettingDefinition> = new Map(settingDefinitions.map((d) => [d.key, d]));

export function isSettingKey(key: string): key is SettingKey {
  return BY_KEY.has(key);
}

export function findDefinition(key: string): SettingDefinition | undefined {
  return BY_KEY.get(key);
}

/** The definition of a known key with its value type, for code that names keys statically. */
export function definitionOf<K extends SettingKey>(key: K): SettingDefinition<SettingValues[K]> {
  return BY_KEY.get(key) as SettingDefinition<SettingValues[K]>;
}

export function definitionsOfGroup(group: string): SettingDefinition[] {
  return settingDefinitions.filter((d) => d.group === group);
}

/** Group names in spec order, each once. */
export function settingGroups(): string[] {
  return [...new Set(settingDefinitions.map((d) => d.group))];
}

/** A fresh copy of the default: callers may change it without affecting anyone else. */
export function defaultValue<K extends SettingKey>(key: K): SettingValues[K] {
  return structuredClone(definitionOf(key).default);
}
