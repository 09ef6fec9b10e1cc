/**
 * Every runtime setting of spec section 2.1, in spec order. Storage, replica sync, the
 * management API and the CLI all go through these definitions, so a value that passes
 * `validate` here is a value the rest of the service can rely on. A setting's words for people
 * (label, description, what it accepts, its choices and its group's heading) are written once,
 * in contracts/settings/words.ts, which the web client's catalogue is too. Startup-only options
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
import { SETTING_WORDS } from '../contracts/settings/words.js';
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
  type SettingSpec,
} from './rules/setting-kinds.js';
import { settingWordsOf } from './setting-words.js';

export type { IceServer } from './rules/ice-servers.js';
export type { OAuth2ProviderSettings } from './rules/oauth2-providers.js';
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
  'sfu.maxSharesPerRoom': number;
  'sfu.shareMaxKbps': number;
  'sfu.cameraMaxKbps': number;
  'sfu.memberMaxKbps': number;
  'sfu.roomMaxKbps': number;
  'sfu.maxParticipantsPerRoom': number;
  'chat.maxMessagesPerRoom': number;
  'chat.maxPinnedMessagesPerRoom': number;
  'chat.messageRetentionDays': number;
  'cors.allowedOrigins': string[];
}

export type SettingKey = keyof SettingValues;

// The mapped type makes a key without a definition (or with the wrong value type) a compile
// error; the literal's order is the spec's order and is what `settings list` shows.
const SETTINGS: { readonly [K in SettingKey]: SettingSpec<SettingValues[K]> } = {
  'server.allowRoomCreation': booleanSetting({ default: true }),
  'server.maxRoomsPerUser': integerSetting({
    type: 'i64',
    range: { min: 1, max: 1000 },
    default: 10,
  }),
  'server.maxMembersPerRoom': integerSetting({
    type: 'i64',
    range: { min: 1, max: 10000 },
    default: 100,
  }),
  'server.maxChatMessages': integerSetting({
    type: 'u64',
    range: { min: 0, max: 10000, zeroMeansUnlimited: true },
    default: 500,
  }),

  'permissions.adminDefaultPermissions': permissionListSetting({
    default: [...BUILTIN_ADMIN_PERMISSIONS],
    choices: PERMISSIONS,
    rule: PERMISSION_LIST_RULE,
    validate: checkPermissionList,
    example: '["send_chat","view_chat_history"]',
  }),
  'permissions.memberDefaultPermissions': permissionListSetting({
    default: [...BUILTIN_MEMBER_PERMISSIONS],
    choices: PERMISSIONS,
    rule: PERMISSION_LIST_RULE,
    validate: checkPermissionList,
    example: '["send_chat","view_chat_history"]',
  }),
  'permissions.guestDefaultPermissions': permissionListSetting({
    default: [...BUILTIN_GUEST_PERMISSIONS],
    choices: GUEST_PERMISSION_CEILING,
    rule: GUEST_PERMISSION_LIST_RULE,
    validate: checkGuestPermissionList,
    example: '["view_member_list","view_chat_history"]',
  }),

  'room.disableCreateRoom': booleanSetting({ default: false }),
  'room.createRoomNeedReview': booleanSetting({ default: false }),
  'room.passwordPolicy': enumSetting<PasswordPolicy>({
    default: 'optional',
    values: ['optional', 'required', 'forbidden'],
    rule: PASSWORD_POLICY_RULE,
    validate: checkPasswordPolicy,
  }),

  'user.enablePasswordSignup': booleanSetting({ default: false }),
  'user.passwordSignupNeedReview': booleanSetting({ default: false }),
  'user.enableEmailSignup': booleanSetting({ default: false }),
  'user.emailSignupNeedReview': booleanSetting({ default: false }),
  'user.enableWebauthnSignup': booleanSetting({ default: false }),
  'user.webauthnSignupNeedReview': booleanSetting({ default: false }),
  'user.enableGuest': booleanSetting({ default: true }),

  'oauth2.providers': jsonSetting<OAuth2ProviderSettings[]>({
    default: [],
    input: { kind: 'oauth2Providers' },
    rule: OAUTH2_PROVIDERS_RULE,
    validate: checkOAuth2Providers,
    example:
      '[{"instanceName":"github","enableSignup":true,"github":{"clientId":"...","clientSecret":"...","redirectUrl":"https://svc.example.com/oauth2/callback/github"}}]',
  }),

  'proxy.movieProxy': booleanSetting({ default: true }),
  'proxy.liveProxy': booleanSetting({ default: true }),

  'rtmp.customPublishHost': stringSetting({
    default: '',
    rule: PUBLISH_HOST_RULE,
    validate: checkPublishHost,
  }),
  'rtmp.tsDisguisedAsPng': booleanSetting({ default: false }),

  'email.whitelistEnabled': booleanSetting({ default: false }),
  'email.whitelistDomains': stringSetting({
    default: '',
    rule: EMAIL_ALLOWLIST_RULE,
    validate: checkEmailAllowlist,
  }),

  'webrtc.externalIceServers': jsonSetting<IceServer[]>({
    default: [{ urls: ['stun:stun.l.google.com:19302'] }, { urls: ['stun:stun1.l.google.com:19302'] }],
    input: { kind: 'iceServers' },
    rule: ICE_SERVERS_RULE,
    validate: checkIceServers,
    example: '[{"urls":["stun:stun.example.com:3478"]}]',
  }),

  // The SFU call (docs/2026-11-29-sfu.md); they matter only on a server with sfu.url set.
  'sfu.maxSharesPerRoom': integerSetting({ type: 'i64', range: { min: 1, max: 16 }, default: 1 }),
  'sfu.shareMaxKbps': integerSetting({ type: 'i64', range: { min: 100, max: 50_000 }, default: 4000 }),
  'sfu.cameraMaxKbps': integerSetting({ type: 'i64', range: { min: 50, max: 20_000 }, default: 1200 }),
  'sfu.memberMaxKbps': integerSetting({ type: 'i64', range: { min: 100, max: 100_000 }, default: 6000 }),
  'sfu.roomMaxKbps': integerSetting({ type: 'i64', range: { min: 1000, max: 10_000_000 }, default: 40_000 }),
  'sfu.maxParticipantsPerRoom': integerSetting({ type: 'i64', range: { min: 2, max: 10_000 }, default: 100 }),

  'chat.maxMessagesPerRoom': integerSetting({
    type: 'u64',
    range: { min: 0, max: 100000, zeroMeansUnlimited: true },
    default: 500,
  }),
  'chat.maxPinnedMessagesPerRoom': integerSetting({
    type: 'u64',
    range: { min: 0, max: 1000 },
    default: 20,
  }),
  'chat.messageRetentionDays': integerSetting({
    type: 'i64',
    range: { min: 1, max: 3650 },
    default: 90,
  }),

  'cors.allowedOrigins': jsonSetting<string[]>({
    default: [],
    input: { kind: 'textList' },
    rule: CORS_ORIGINS_RULE,
    validate: checkCorsOrigins,
    example: '["https://watch.example.com"]',
  }),
};

type SettingGroup = SettingKey extends `${infer G}.${string}` ? G : never;

/** Each group's heading for people (contracts/settings/words.ts); a group without one is a compile error. */
const GROUP_LABELS: { readonly [G in SettingGroup]: string } = SETTING_WORDS.groups;

type KeyWordsTree = typeof SETTING_WORDS.keys;
type HasWords<K extends string> = K extends `${infer G}.${infer N}` ? (G extends keyof KeyWordsTree ? N extends keyof KeyWordsTree[G] ? true : false : false) : false;
type WithoutWords = { [K in SettingKey]: HasWords<K> extends true ? never : K }[SettingKey];
// A setting without its label and description in contracts/settings/words.ts does not compile: the
// type below is then the key's name, and `true` is not it.
const _everySettingHasWords: [WithoutWords] extends [never] ? true : WithoutWords = true;

export const settingDefinitions: readonly SettingDefinition[] = Object.freeze(
  Object.entries(SETTINGS).map(([key, spec]): SettingDefinition => {
    const dot = key.indexOf('.');
    const group = key.slice(0, dot) as SettingGroup;
    const body = (spec as SettingSpec<unknown>)(settingWordsOf(key));
    return Object.freeze({ ...body, key, group, groupLabel: GROUP_LABELS[group], name: key.slice(dot + 1) });
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
