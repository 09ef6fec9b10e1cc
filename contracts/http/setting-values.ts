/**
 * The runtime settings an administrator writes over HTTP, group by group: every key a group
 * holds and the rule of its value, as the settings registry (settings/registry.ts) checks them,
 * so the document states what a write may hold. test/contracts/setting-values.test.ts keeps the
 * two the same (keys, and each rule on values either side of it). Three values have rules no
 * schema states (OAuth2 providers with unique names and secrets kept by reference, origins
 * compared in canonical form, ICE credentials kept by reference): their type is stated, the
 * registry's rule is in the description. A leaf module.
 */
import { z } from 'zod';
import { GUEST_PERMISSION_CEILING } from '../permissions/defaults.js';
import { PERMISSIONS } from '../permissions/names.js';
import { privateText } from '../text.js';

function integer(min: number, max: number, zeroMeansUnlimited = false): z.ZodNumber {
  const rule = `${min}..=${max}${zeroMeansUnlimited ? ' (0 means unlimited)' : ''}`;
  return z
    .number({ error: `must be an integer in ${rule}` })
    .int({ error: `must be an integer in ${rule}` })
    .min(min, { error: `must be an integer in ${rule}` })
    .max(max, { error: `must be an integer in ${rule}` });
}

const flag = (): z.ZodBoolean => z.boolean({ error: 'must be true or false' });

/** Distinct names from `names` (JSON Schema's enum items and uniqueItems); a problem names the list, as the registry does. */
function permissionList(names: readonly string[]) {
  const known = new Set(names);
  return z
    // Text the server can hold, element by element (a NUL is named at its index); then the names.
    .array(privateText())
    .refine((list) => list.every((name) => known.has(name)), { error: `must list only ${names.join(', ')}` })
    .refine((list) => new Set(list).size === list.length, { error: 'must not list a permission more than once' })
    .meta({
      override: ({ jsonSchema }: { jsonSchema: Record<string, unknown> }) => {
        jsonSchema.items = { type: 'string', enum: [...names] };
        jsonSchema.uniqueItems = true;
      },
    });
}

// Host names as the registry reads them (settings/rules/domain-name.ts, host-port.ts): RFC 1123
// labels, at most 253 characters, the last label not all digits when there are several.
const LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
const NAMED_LABEL = `(?=[A-Za-z0-9-]*[A-Za-z-])${LABEL}`;
const DOMAIN = `(?=[A-Za-z0-9.-]{1,253}(?![A-Za-z0-9.-]))(?:(?:${LABEL}\\.)+${NAMED_LABEL}|${LABEL})`;
const DOTTED_DOMAIN = `(?=[A-Za-z0-9.-]{1,253}(?![A-Za-z0-9.-]))(?:${LABEL}\\.)+${NAMED_LABEL}`;
const OCTET = '(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9][0-9]|[0-9])';
const IPV4 = `${OCTET}(?:\\.${OCTET}){3}`;
const H16 = '[0-9A-Fa-f]{1,4}';
const LS32 = `(?:${H16}:${H16}|${IPV4})`;
const IPV6 = [
  `(?:${H16}:){6}${LS32}`,
  `::(?:${H16}:){5}${LS32}`,
  `(?:${H16})?::(?:${H16}:){4}${LS32}`,
  `(?:(?:${H16}:){0,1}${H16})?::(?:${H16}:){3}${LS32}`,
  `(?:(?:${H16}:){0,2}${H16})?::(?:${H16}:){2}${LS32}`,
  `(?:(?:${H16}:){0,3}${H16})?::${H16}:${LS32}`,
  `(?:(?:${H16}:){0,4}${H16})?::${LS32}`,
  `(?:(?:${H16}:){0,5}${H16})?::${H16}`,
  `(?:(?:${H16}:){0,6}${H16})?::`,
].join('|');
/** 1..65535 in at most five digits (leading zeros allowed). */
const PORT = '(?:[1-9][0-9]{0,3}|0[1-9][0-9]{0,3}|00[1-9][0-9]{0,2}|000[1-9][0-9]?|0000[1-9]|[1-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5])';
const HOST_PORT = `(?:\\[(?:${IPV6})\\]|${IPV4}|${DOMAIN})(?::${PORT})?`;

// String.prototype.trim's white space, which the allowlist's entries may have around them.
const TRIMMED = '[\\t\\n\\u000b\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff]*';
const ATOM = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+";
const ALLOWLIST_ENTRY = `(?:(?=[^@]{1,64}@)${ATOM}(?:\\.${ATOM})*@)?${DOTTED_DOMAIN}`;
const ALLOWLIST = new RegExp(`^(?:${TRIMMED}${ALLOWLIST_ENTRY}${TRIMMED}(?:,${TRIMMED}${ALLOWLIST_ENTRY}${TRIMMED})*)?$`);

const json = z.unknown();

/** Each group's keys and the rule of each value. */
export const SETTING_VALUES = {
  server: {
    allowRoomCreation: flag(),
    maxRoomsPerUser: integer(1, 1000),
    maxMembersPerRoom: integer(1, 10000),
    maxChatMessages: integer(0, 10000, true),
  },
  permissions: {
    adminDefaultPermissions: permissionList(PERMISSIONS),
    memberDefaultPermissions: permissionList(PERMISSIONS),
    guestDefaultPermissions: permissionList(GUEST_PERMISSION_CEILING),
  },
  room: {
    disableCreateRoom: flag(),
    createRoomNeedReview: flag(),
    passwordPolicy: z.enum(['optional', 'required', 'forbidden']),
  },
  user: {
    enablePasswordSignup: flag(),
    passwordSignupNeedReview: flag(),
    enableEmailSignup: flag(),
    emailSignupNeedReview: flag(),
    enableWebauthnSignup: flag(),
    webauthnSignupNeedReview: flag(),
    enableGuest: flag(),
  },
  oauth2: {
    providers: z.array(json).meta({
      description:
        'A list of providers, each {instanceName, enableSignup?, signupNeedReview?, github: {clientId, clientSecret, redirectUrl}} or {..., oidc: {clientId, clientSecret, issuer, redirectUrl}}; instance names unique; a clientSecret of "[redacted]" keeps the stored one (settings/rules/oauth2-providers.ts). Role root only.',
    }),
  },
  proxy: { movieProxy: flag(), liveProxy: flag() },
  rtmp: {
    customPublishHost: z
      .string()
      .regex(new RegExp(`^(?:${HOST_PORT})?$`), { error: 'must be empty, or host[:port] without scheme or path' })
      .meta({ description: 'Empty, or host[:port] (a host name, an IPv4 address or a bracketed IPv6 address; a port 1..65535)' }),
    tsDisguisedAsPng: flag(),
  },
  email: {
    whitelistEnabled: flag(),
    whitelistDomains: z
      .string()
      .regex(ALLOWLIST, { error: 'must be comma-separated domain names or email addresses; empty allowed' })
      .meta({ description: 'Comma-separated domains (with a dot) or email addresses, white space around each allowed; empty: none' }),
  },
  webrtc: {
    externalIceServers: z.array(json).meta({
      description:
        'A list of {urls: ["stun:|stuns:|turn:|turns:host[:port]", ...], username?, credential?}; TURN needs username and credential; a credential of "[redacted]" keeps the stored one (settings/rules/ice-servers.ts)',
    }),
  },
  sfu: {
    maxSharesPerRoom: integer(1, 16),
    shareMaxKbps: integer(100, 50_000),
    cameraMaxKbps: integer(50, 20_000),
    memberMaxKbps: integer(100, 100_000),
    roomMaxKbps: integer(1000, 10_000_000),
    maxParticipantsPerRoom: integer(2, 10_000),
  },
  chat: {
    maxMessagesPerRoom: integer(0, 100000, true),
    maxPinnedMessagesPerRoom: integer(0, 1000),
    messageRetentionDays: integer(1, 3650),
  },
  cors: {
    allowedOrigins: z.array(privateText()).meta({
      description: 'Distinct bare origins (scheme://host[:port]), compared in canonical form (settings/rules/cors-origins.ts)',
    }),
  },
} as const;

export type SettingGroupName = keyof typeof SETTING_VALUES;
export const SETTING_GROUPS = Object.keys(SETTING_VALUES) as SettingGroupName[];
