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
  GUEST_PERMISSION_CEILING,
} from '../contracts/permissions/defaults.js';
import { PERMISSIONS, type Permission } from '../contracts/permissions/names.js';
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
  permissionListSetting,
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
  'server.allowRoomCreation': booleanSetting({
    default: true,
    label: 'People can create rooms',
    description: 'When off, nobody can create a new room on this server; existing rooms stay open.',
  }),
  'server.maxRoomsPerUser': integerSetting({
    type: 'i64',
    range: { min: 1, max: 1000 },
    default: 10,
    label: 'Rooms per person',
    description: 'How many rooms one person can own at the same time.',
  }),
  'server.maxMembersPerRoom': integerSetting({
    type: 'i64',
    range: { min: 1, max: 10000 },
    default: 100,
    label: 'People per room',
    description: 'How many people can be in one room at the same time.',
  }),
  'server.maxChatMessages': integerSetting({
    type: 'u64',
    range: { min: 0, max: 10000, zeroMeansUnlimited: true },
    default: 500,
    label: 'Server-wide chat message limit',
    description: 'The chat message limit this server states as its policy; rooms delete old messages by “Chat messages kept per room”.',
  }),

  'permissions.adminDefaultPermissions': permissionListSetting({
    default: [...BUILTIN_ADMIN_PERMISSIONS],
    label: 'What room admins can do',
    description: 'What a room’s admins can do, unless the room sets its own permissions.',
    choices: PERMISSIONS,
    rule: PERMISSION_LIST_RULE,
    validate: checkPermissionList,
    example: '["send_chat","view_chat_history"]',
  }),
  'permissions.memberDefaultPermissions': permissionListSetting({
    default: [...BUILTIN_MEMBER_PERMISSIONS],
    label: 'What room members can do',
    description: 'What people who joined a room with an account can do, unless the room sets its own permissions.',
    choices: PERMISSIONS,
    rule: PERMISSION_LIST_RULE,
    validate: checkPermissionList,
    example: '["send_chat","view_chat_history"]',
  }),
  'permissions.guestDefaultPermissions': permissionListSetting({
    default: [...BUILTIN_GUEST_PERMISSIONS],
    label: 'What guests can do',
    description: 'What guests (people without an account) can do in a room, unless the room sets its own permissions; guests can only ever look on and join calls.',
    choices: GUEST_PERMISSION_CEILING,
    rule: GUEST_PERMISSION_LIST_RULE,
    validate: checkGuestPermissionList,
    example: '["view_member_list","view_chat_history"]',
  }),

  'room.disableCreateRoom': booleanSetting({
    default: false,
    label: 'Stop room creation',
    description: 'When on, nobody can create a new room; a switch of its own beside “People can create rooms”.',
  }),
  'room.createRoomNeedReview': booleanSetting({
    default: false,
    label: 'New rooms need approval',
    description: 'When on, a new room stays hidden from everyone but its owner until an administrator approves it.',
  }),
  'room.passwordPolicy': enumSetting<PasswordPolicy>({
    default: 'optional',
    label: 'Room passwords',
    description: 'Whether a room may, must or must not have a password to join it.',
    options: [
      { value: 'optional', label: 'Optional' },
      { value: 'required', label: 'Required' },
      { value: 'forbidden', label: 'Not allowed' },
    ],
    rule: PASSWORD_POLICY_RULE,
    validate: checkPasswordPolicy,
  }),

  'user.enablePasswordSignup': booleanSetting({
    default: false,
    label: 'Sign up with a password',
    description: 'Lets anyone create an account with a username and password.',
  }),
  'user.passwordSignupNeedReview': booleanSetting({
    default: false,
    label: 'Password sign-ups need approval',
    description: 'When on, an account made with a password waits for an administrator’s approval before it can sign in.',
  }),
  'user.enableEmailSignup': booleanSetting({
    default: false,
    label: 'Sign up by email',
    description: 'Lets anyone create an account from a link sent to their email address, where they choose a password.',
  }),
  'user.emailSignupNeedReview': booleanSetting({
    default: false,
    label: 'Email sign-ups need approval',
    description: 'When on, an account made by email waits for an administrator’s approval before it can sign in.',
  }),
  'user.enableWebauthnSignup': booleanSetting({
    default: false,
    label: 'Sign up with a passkey',
    description: 'Lets anyone create an account with a passkey instead of a password (adding a passkey to an existing account is always possible).',
  }),
  'user.webauthnSignupNeedReview': booleanSetting({
    default: false,
    label: 'Passkey sign-ups need approval',
    description: 'When on, an account made with a passkey waits for an administrator’s approval before it exists.',
  }),
  'user.enableGuest': booleanSetting({
    default: true,
    label: 'Guests',
    description: 'Lets people without an account join rooms as guests under a display name.',
  }),

  'oauth2.providers': jsonSetting<OAuth2ProviderSettings[]>({
    default: [],
    label: 'Sign in with GitHub or another provider',
    description: 'The outside sign-in providers (GitHub, or any OpenID Connect provider) people can use; only those listed here are offered.',
    accepts: 'A list of providers, each with a unique name, its kind, client ID, client secret and return address (and an issuer for OpenID Connect).',
    input: { kind: 'oauth2Providers' },
    rule: OAUTH2_PROVIDERS_RULE,
    validate: checkOAuth2Providers,
    example:
      '[{"instanceName":"github","enableSignup":true,"github":{"clientId":"...","clientSecret":"...","redirectUrl":"https://svc.example.com/oauth2/callback/github"}}]',
  }),

  'proxy.movieProxy': booleanSetting({
    default: true,
    label: 'Play videos through this server',
    description: 'Lets rooms play a video through this server when the viewer’s browser cannot fetch it directly.',
  }),
  'proxy.liveProxy': booleanSetting({
    default: true,
    label: 'Play live streams through this server',
    description: 'Lets rooms play a live stream through this server when the viewer’s browser cannot fetch it directly.',
  }),

  'rtmp.customPublishHost': stringSetting({
    default: '',
    label: 'Address for streamers',
    description: 'The address given to people who stream into a room; leave empty to use this server’s own address.',
    accepts: 'A host name or IP address, optionally with :port; or empty.',
    rule: PUBLISH_HOST_RULE,
    validate: checkPublishHost,
  }),
  'rtmp.tsDisguisedAsPng': booleanSetting({
    default: false,
    label: 'Disguise live video pieces as images',
    description: 'Serves the pieces of live streams as if they were PNG images, for networks that block video files.',
  }),

  'email.whitelistEnabled': booleanSetting({
    default: false,
    label: 'Only allowed email addresses can sign up',
    description: 'When on, sign-up by email is limited to the addresses and domains listed below (an empty list limits nothing).',
  }),
  'email.whitelistDomains': stringSetting({
    default: '',
    label: 'Allowed email domains and addresses',
    description: 'The domains (example.com) and addresses (alice@example.com) allowed to sign up by email.',
    accepts: 'Domains or email addresses separated by commas; or empty.',
    rule: EMAIL_ALLOWLIST_RULE,
    validate: checkEmailAllowlist,
  }),

  'webrtc.externalIceServers': jsonSetting<IceServer[]>({
    default: [{ urls: ['stun:stun.l.google.com:19302'] }, { urls: ['stun:stun1.l.google.com:19302'] }],
    label: 'Servers that connect calls (STUN/TURN)',
    description: 'The STUN and TURN servers that help voice and video calls connect between people on different networks.',
    accepts: 'A list of servers, each with one or more addresses like stun:host:port or turn:host:port; a TURN server also needs a username and credential.',
    input: { kind: 'iceServers' },
    rule: ICE_SERVERS_RULE,
    validate: checkIceServers,
    example: '[{"urls":["stun:stun.example.com:3478"]}]',
  }),

  'chat.maxMessagesPerRoom': integerSetting({
    type: 'u64',
    range: { min: 0, max: 100000, zeroMeansUnlimited: true },
    default: 500,
    label: 'Chat messages kept per room',
    description: 'How many chat messages each room keeps; older ones are deleted.',
  }),
  'chat.maxPinnedMessagesPerRoom': integerSetting({
    type: 'u64',
    range: { min: 0, max: 1000 },
    default: 20,
    label: 'Pinned messages kept per room',
    description: 'How many pinned chat messages each room keeps.',
  }),
  'chat.messageRetentionDays': integerSetting({
    type: 'i64',
    range: { min: 1, max: 3650 },
    default: 90,
    label: 'Days chat messages are kept',
    description: 'Chat messages older than this many days are deleted.',
  }),

  'cors.allowedOrigins': jsonSetting<string[]>({
    default: [],
    label: 'Other sites that may play videos from here',
    description: 'Websites that may load this server’s proxied videos and streams in their own pages (besides the addresses set at startup).',
    accepts: 'A list of site addresses like https://watch.example.com (scheme, host and optional port, nothing after).',
    input: { kind: 'textList', itemLabel: 'Site address' },
    rule: CORS_ORIGINS_RULE,
    validate: checkCorsOrigins,
    example: '["https://watch.example.com"]',
  }),
};

type SettingGroup = SettingKey extends `${infer G}.${string}` ? G : never;

/** Each group's heading for people; a group without one is a compile error. */
const GROUP_LABELS: { readonly [G in SettingGroup]: string } = {
  server: 'Server limits',
  permissions: 'Room permissions',
  room: 'Rooms',
  user: 'Sign-up and guests',
  oauth2: 'Sign-in providers',
  proxy: 'Playing through this server',
  rtmp: 'Live streaming',
  email: 'Email sign-up',
  webrtc: 'Voice and video calls',
  chat: 'Chat',
  cors: 'Other sites',
};

export const settingDefinitions: readonly SettingDefinition[] = Object.freeze(
  Object.entries(SETTINGS).map(([key, body]): SettingDefinition => {
    const dot = key.indexOf('.');
    const group = key.slice(0, dot) as SettingGroup;
    return Object.freeze({ ...(body as SettingBody<unknown>), key, group, groupLabel: GROUP_LABELS[group], name: key.slice(dot + 1) });
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
