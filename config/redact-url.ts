/**
 * URLs without their passwords, for `svc config show` and for validation messages (which end up
 * in logs and terminals). Apart from config/redact.ts so that the registry's URL checks can use it
 * without importing the registry back.
 */
import { splitUrlList } from './url-list.js';

export const REDACTED = '[redacted]';

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
