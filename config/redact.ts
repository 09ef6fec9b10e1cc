import { STARTUP_KEYS } from './keys.js';
import { getValue, setValue } from './paths.js';
import { splitUrlList } from './url-list.js';
import type { StartupConfig } from './types.js';

export const REDACTED = '[redacted]';

/**
 * A copy of the configuration that is safe to print or log: every non-empty secret becomes
 * "[redacted]", and URLs keep everything but their password.
 */
export function redactConfig(config: StartupConfig): StartupConfig {
  const copy = structuredClone(config);
  const target = copy as unknown as Record<string, unknown>;
  for (const key of STARTUP_KEYS) {
    const value = getValue(config, key.key);
    // Lists of secrets (former keys kept for a rotation) hide each entry, keeping the count.
    if (Array.isArray(value) && key.sensitivity === 'value') {
      setValue(target, key.key, value.map(() => REDACTED));
      continue;
    }
    if (typeof value !== 'string' || value === '') continue;
    if (key.sensitivity === 'value') setValue(target, key.key, REDACTED);
    else if (key.sensitivity === 'url_credentials') setValue(target, key.key, redactUrlList(value));
  }
  return copy;
}

/** Redacts each URL of a comma-separated list (NATS accepts several servers). */
export function redactUrlList(text: string): string {
  return splitUrlList(text)
    .map((part) => redactUrl(part))
    .join(',');
}

/** `postgres://svc:pw@db/svc?sslpassword=x` → `postgres://svc:[redacted]@db/svc?sslpassword=[redacted]`. */
export function redactUrl(text: string): string {
  let out = text;
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    url = undefined;
  }
  if (url) {
    if (url.password !== '') {
      out = `${url.protocol}//${url.username}:${REDACTED}@${url.host}${url.pathname}${url.search}${url.hash}`;
    }
  } else {
    // Unparseable: hide everything up to the last "@" after the scheme, which over-redacts
    // rather than risk showing part of a password.
    out = out.replace(/^([a-z][a-z0-9+.-]*:\/\/)(.*)@/is, (_m, scheme: string, userinfo: string) =>
      userinfo.includes(':') ? `${scheme}${REDACTED}@` : _m,
    );
  }
  return out.replace(/([?&](?:ssl)?password=)[^&#]*/gi, `$1${REDACTED}`);
}
