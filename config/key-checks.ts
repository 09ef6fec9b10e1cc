/**
 * Checks that belong to one startup key each (the registry names them in its rows): secrets,
 * NATS addresses, TURN URLs. The checks keys share are in key-rules.ts; those that read several
 * keys are the cross-key rules.
 */
import type { KeyRule } from './key-kinds.js';
import { urlProblems } from './key-rules.js';
import { jwtSecretProblem } from './jwt-secret.js';
import { isValidOpaqueServerSetup } from './opaque-setup.js';
import { splitUrlList } from './url-list.js';

const HEX_KEY = /^[0-9a-fA-F]{64}$/;

export const jwtSecret: KeyRule<string> = (value) => {
  const problem = jwtSecretProblem(value);
  return problem ? [problem] : [];
};

export const formerJwtSecrets: KeyRule<string[]> = (secrets) =>
  secrets.flatMap((secret, index) => {
    const problem = jwtSecretProblem(secret);
    return problem ? [`entry ${index + 1} ${problem}`] : [];
  });

export const opaqueServerSetup: KeyRule<string> = async (value) => {
  const advice = 'generate it once with `svc secrets generate` and keep it: replacing it invalidates every registered password';
  if (value === '') return [`is required; ${advice}`];
  if (await isValidOpaqueServerSetup(value)) return [];
  return [`is not a valid OPAQUE server setup; ${advice}`];
};

export const credentialKey: KeyRule<string> = (key) => {
  if (HEX_KEY.test(key)) return [];
  const found = key === '' ? 'it is empty' : /^[0-9a-fA-F]*$/.test(key) ? `got ${key.length}` : 'it contains non-hex characters';
  return [`must be exactly 64 hexadecimal characters, 32 random bytes (${found}); generate one with \`svc secrets generate\``];
};

export const formerCredentialKeys: KeyRule<string[]> = (keys) =>
  keys.flatMap((key, index) => (HEX_KEY.test(key) ? [] : [`entry ${index + 1} must be exactly 64 hexadecimal characters`]));

export const natsUrls: KeyRule<string> = (value) => {
  const urls = splitUrlList(value);
  if (urls.length === 0) return ['is required (nats://host:port, several separated by commas)'];
  return urls.flatMap((url) => urlProblems(url, ['nats:'], 'nats://host:4222'));
};

// A subject token cannot be empty or contain spaces, and wildcards would match other tenants.
export const subjectPrefix: KeyRule<string> = (prefix) =>
  /^[^\s.*>]+(\.[^\s.*>]+)*$/.test(prefix)
    ? []
    : [`"${prefix}" must be one or more subject tokens (such as "svc" or "prod.svc") without wildcards or spaces`];

export const turnUrls: KeyRule<string[]> = (urls) =>
  urls.flatMap((url) =>
    /^turns?:[^\s?]+(\?transport=(udp|tcp))?$/.test(url) ? [] : [`"${url}" is not a turn: or turns: URL (turn:host[:port][?transport=udp|tcp])`],
  );

export const httpUrlOrEmpty: KeyRule<string> = (value) => {
  if (value === '') return [];
  const ok = URL.canParse(value) && ['http:', 'https:'].includes(new URL(value).protocol);
  return ok ? [] : [`"${value}" must be an http(s) URL or empty`];
};
