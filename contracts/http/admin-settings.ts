/**
 * Runtime settings for service administrators (`/api/admin/settings`): read with their
 * metadata, write a group, read a key's history. Writes go through the same validated path as
 * `svc settings update` and are recorded in the settings history under `user:<username>`.
 * Credentials inside values (OAuth2 client secrets, TURN credentials) are shown redacted.
 * A leaf module.
 */
import { z } from 'zod';
import { defineEndpoint } from './endpoint.js';
import { SETTING_VALUES, type SettingGroupName } from './setting-values.js';

const TAGS = ['admin'];
const key = z
  .string()
  .regex(/^[A-Za-z0-9]{1,32}\.[A-Za-z0-9]{1,64}$/, { error: 'must be a setting key <group>.<name>' })
  .meta({ description: 'A runtime setting key, for example server.maxRoomsPerUser' });
const group = z.string().regex(/^[A-Za-z0-9]{1,32}$/, { error: 'must be a settings group name' }).meta({ description: 'The key\'s first segment, for example user' });

const Choice = z.strictObject({ value: z.string(), label: z.string().meta({ description: 'The words a page shows for the value' }) });

export const SettingInput = z
  .discriminatedUnion('kind', [
    z.strictObject({ kind: z.literal('boolean') }),
    z.strictObject({ kind: z.literal('integer'), min: z.number().int(), max: z.number().int(), zeroMeansUnlimited: z.boolean() }),
    z.strictObject({ kind: z.literal('choice'), options: z.array(Choice) }),
    z.strictObject({ kind: z.literal('text') }),
    z.strictObject({ kind: z.literal('permissions'), choices: z.array(Choice).meta({ description: 'The permissions this list may hold (for guests, only those a guest can ever have)' }) }),
    z.strictObject({ kind: z.literal('textList'), itemLabel: z.string() }),
    z.strictObject({ kind: z.literal('iceServers') }),
    z.strictObject({ kind: z.literal('oauth2Providers') }),
  ])
  .meta({ id: 'SettingInput', description: 'How a form edits the value: the field kind and what it offers' });

export const SettingView = z
  .strictObject({
    key: z.string(),
    group: z.string(),
    groupLabel: z.string().meta({ description: 'The group\'s heading for people, for example "Sign-up and guests"' }),
    name: z.string(),
    type: z.enum(['bool', 'i64', 'u64', 'string', 'enum', 'json']),
    value: z.unknown().meta({ description: 'The current value (JSON)' }),
    default: z.unknown().meta({ description: 'The built-in default' }),
    isDefault: z.boolean().meta({ description: 'Never written: the default applies' }),
    version: z.number().int(),
    updatedAt: z.string().optional().meta({ format: 'date-time' }),
    updatedBy: z.string().optional(),
    label: z.string().meta({ description: 'A short human name, for example "Rooms per person"' }),
    description: z.string().meta({ description: 'One plain sentence: what the setting does' }),
    accepts: z.string().meta({ description: 'What values are accepted, in plain words, for example "A whole number from 1 to 1000."' }),
    input: SettingInput,
    rule: z.string().meta({ description: 'The technical rule, as error messages name it, for example 1..=1000' }),
  })
  .meta({ id: 'SettingView' });

export const SettingChangeView = z
  .strictObject({ key: z.string(), oldValue: z.unknown(), newValue: z.unknown(), version: z.number().int() })
  .meta({ id: 'SettingChange' });

const Vouching = z.strictObject({ provider: z.enum(['github', 'oidc']), issuer: z.string() });

export const OAuth2IssuerChangeView = z
  .strictObject({
    instanceName: z.string(),
    previous: Vouching,
    current: Vouching,
    message: z.string(),
  })
  .meta({ id: 'OAuth2IssuerChange', description: 'An OAuth2 instance whose provider kind or issuer changed: the identities bound through it before no longer sign in' });

export const SettingHistoryEntry = z
  .strictObject({
    key: z.string(),
    oldValue: z.unknown(),
    oldIsDefault: z.boolean(),
    newValue: z.unknown(),
    changedBy: z.string(),
    source: z.string(),
    replicaId: z.string().nullable(),
    changedAt: z.string().meta({ format: 'date-time' }),
  })
  .meta({ id: 'SettingHistoryEntry' });

export const adminListSettings = defineEndpoint({
  method: 'get',
  path: '/api/admin/settings',
  operationId: 'adminListSettings',
  summary: 'Every runtime setting with its value, default, human name, description and rule',
  tags: TAGS,
  access: 'admin',
  query: z.strictObject({ group: group.optional() }),
  responses: { 200: { description: 'Settings in registry order', schema: z.strictObject({ settings: z.array(SettingView) }) } },
  errors: ['unauthenticated', 'forbidden'],
});

export const adminGetSetting = defineEndpoint({
  method: 'get',
  path: '/api/admin/settings/{key}',
  operationId: 'adminGetSetting',
  summary: 'One runtime setting',
  tags: TAGS,
  access: 'admin',
  params: z.strictObject({ key }),
  responses: { 200: { description: 'The setting', schema: SettingView } },
  errors: ['unauthenticated', 'forbidden', 'not_found'],
});

const SettingsWritten = z
  .strictObject({ changes: z.array(SettingChangeView), oauth2IssuerChanges: z.array(OAuth2IssuerChangeView) })
  .meta({ id: 'SettingsWritten' });

/**
 * Writing one group: a path of its own, so the body states the keys that group holds and the
 * rule of each value (setting-values.ts). An unknown group is no path (404).
 */
function groupWrite<G extends SettingGroupName>(group: G, operationId: string) {
  return defineEndpoint({
    method: 'patch',
    path: `/api/admin/setting-groups/${group}`,
    operationId,
    summary: `Write settings of the ${group} group: a JSON object of name to value; all or nothing`,
    description: `Every value is checked against its rule first; any problem is invalid_argument with an issue per key (named ${group}.<name>) and nothing is written. The change is recorded in the settings history with the administrator as user:<username> and source http, and reaches every replica.${
      group === 'oauth2' ? ' providers is written by role root only (an admin gets forbidden naming the key); oauth2IssuerChanges lists the instances whose kind or issuer the write changed, whose existing bindings no longer sign in.' : ''
    }`,
    tags: TAGS,
    access: 'admin',
    body: z.strictObject(SETTING_VALUES[group]).partial().meta({ id: `SettingGroup_${group}`, description: `Some or all of the ${group} settings, by name` }),
    bodyIssuePrefix: group,
    responses: { 200: { description: 'The keys whose value changed', schema: SettingsWritten } },
    errors: ['unauthenticated', 'forbidden', 'unavailable'],
  });
}

export const adminUpdateServerSettings = groupWrite('server', 'adminUpdateServerSettings');
export const adminUpdatePermissionsSettings = groupWrite('permissions', 'adminUpdatePermissionsSettings');
export const adminUpdateRoomSettings = groupWrite('room', 'adminUpdateRoomSettings');
export const adminUpdateUserSettings = groupWrite('user', 'adminUpdateUserSettings');
export const adminUpdateOAuth2Settings = groupWrite('oauth2', 'adminUpdateOAuth2Settings');
export const adminUpdateProxySettings = groupWrite('proxy', 'adminUpdateProxySettings');
export const adminUpdateRtmpSettings = groupWrite('rtmp', 'adminUpdateRtmpSettings');
export const adminUpdateEmailSettings = groupWrite('email', 'adminUpdateEmailSettings');
export const adminUpdateWebrtcSettings = groupWrite('webrtc', 'adminUpdateWebrtcSettings');
export const adminUpdateSfuSettings = groupWrite('sfu', 'adminUpdateSfuSettings');
export const adminUpdateChatSettings = groupWrite('chat', 'adminUpdateChatSettings');
export const adminUpdateCorsSettings = groupWrite('cors', 'adminUpdateCorsSettings');

/** Every group's write, by group (SETTING_GROUPS). */
export const SETTING_GROUP_WRITES: { readonly [G in SettingGroupName]: ReturnType<typeof groupWrite<G>> } = {
  server: adminUpdateServerSettings,
  permissions: adminUpdatePermissionsSettings,
  room: adminUpdateRoomSettings,
  user: adminUpdateUserSettings,
  oauth2: adminUpdateOAuth2Settings,
  proxy: adminUpdateProxySettings,
  rtmp: adminUpdateRtmpSettings,
  email: adminUpdateEmailSettings,
  webrtc: adminUpdateWebrtcSettings,
  sfu: adminUpdateSfuSettings,
  chat: adminUpdateChatSettings,
  cors: adminUpdateCorsSettings,
};

export const adminSettingHistory = defineEndpoint({
  method: 'get',
  path: '/api/admin/settings/{key}/history',
  operationId: 'adminSettingHistory',
  summary: 'Recorded changes of one setting, newest first',
  tags: TAGS,
  access: 'admin',
  params: z.strictObject({ key }),
  query: z.strictObject({ limit: z.coerce.number().int().min(1).max(500).optional().meta({ description: 'Default 50' }) }),
  responses: { 200: { description: 'The history', schema: z.strictObject({ history: z.array(SettingHistoryEntry) }) } },
  errors: ['unauthenticated', 'forbidden', 'not_found'],
});
