/**
 * Runtime settings are not startup secrets, but a few of their fields are credentials
 * (OAuth2 client secrets, TURN credentials). Listings hide them unless asked; a form that
 * sends a listed value back with a hidden field unchanged keeps the stored credential.
 */
import type { ValidationResult } from './definition.js';

export const REDACTED = '[redacted]';

type Entry = Record<string, unknown>;

export function redactSettingValue(key: string, value: unknown): unknown {
  if (key === 'oauth2.providers' && Array.isArray(value)) {
    return value.map((provider: Entry) => {
      const copy: Entry = { ...provider };
      for (const variant of ['github', 'oidc']) {
        const inner = copy[variant] as Entry | undefined;
        if (inner && typeof inner === 'object' && inner.clientSecret) copy[variant] = { ...inner, clientSecret: REDACTED };
      }
      return copy;
    });
  }
  if (key === 'webrtc.externalIceServers' && Array.isArray(value)) {
    return value.map((server: Entry) =>
      server && typeof server === 'object' && server.credential ? { ...server, credential: REDACTED } : server,
    );
  }
  return value;
}

/**
 * Puts the stored credential back where a written value still holds `[redacted]`. A hidden
 * credential is kept only for the same client: an OAuth2 instance of the same name, kind and
 * client ID, or an ICE server with the same username and one address in common. Elsewhere a
 * hidden credential is refused, so the placeholder itself is never stored as a secret.
 */
export function keepRedactedSecrets(key: string, written: unknown, stored: unknown): ValidationResult<unknown> {
  if (!Array.isArray(written) || !Array.isArray(stored)) return { ok: true, value: written };
  const storedEntries = stored.filter(isEntry);
  if (key === 'oauth2.providers') return restoreEach(written, (entry) => restoreProvider(entry, storedEntries));
  if (key === 'webrtc.externalIceServers') return restoreEach(written, (entry) => restoreIceServer(entry, storedEntries));
  return { ok: true, value: written };
}

function restoreEach(written: unknown[], restore: (entry: Entry) => ValidationResult<Entry>): ValidationResult<unknown> {
  const restored: unknown[] = [];
  for (const [index, entry] of written.entries()) {
    if (!isEntry(entry)) {
      restored.push(entry);
      continue;
    }
    const result = restore(entry);
    if (!result.ok) return { ok: false, message: `element ${index}: ${result.message}` };
    restored.push(result.value);
  }
  return { ok: true, value: restored };
}

function restoreProvider(provider: Entry, stored: Entry[]): ValidationResult<Entry> {
  for (const variant of ['github', 'oidc'] as const) {
    const inner = provider[variant];
    if (!isEntry(inner) || inner.clientSecret !== REDACTED) continue;
    const same = stored.find((candidate) => candidate.instanceName === provider.instanceName && isEntry(candidate[variant]) && candidate[variant].clientId === inner.clientId);
    const secret = same && isEntry(same[variant]) ? same[variant].clientSecret : undefined;
    if (typeof secret !== 'string') {
      return {
        ok: false,
        message: `${variant}.clientSecret is hidden and no saved ${variant} provider named ${JSON.stringify(provider.instanceName)} has this client ID; enter the client secret`,
      };
    }
    return { ok: true, value: { ...provider, [variant]: { ...inner, clientSecret: secret } } };
  }
  return { ok: true, value: provider };
}

function restoreIceServer(server: Entry, stored: Entry[]): ValidationResult<Entry> {
  if (server.credential !== REDACTED) return { ok: true, value: server };
  const urls = Array.isArray(server.urls) ? server.urls : [];
  const same = stored.find((candidate) => candidate.username === server.username && Array.isArray(candidate.urls) && candidate.urls.some((url) => urls.includes(url)));
  if (typeof same?.credential !== 'string') {
    return { ok: false, message: 'credential is hidden and no saved server has this username and one of these addresses; enter the credential' };
  }
  return { ok: true, value: { ...server, credential: same.credential } };
}

function isEntry(value: unknown): value is Entry {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
