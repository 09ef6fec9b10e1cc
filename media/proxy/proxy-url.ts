/**
 * The shape of proxied media URLs: `/media/proxy/<grant token>/<name>`. The name only helps
 * players and people (an extension for type sniffing, a file name in download dialogs); the
 * token alone says what is read. Relative to the service's origin: clients resolve it against
 * the base URL they call the API at.
 */
export const PROXY_PREFIX = '/media/proxy/';

export function proxyUrl(token: string, name: string): string {
  return `${PROXY_PREFIX}${token}/${encodeURIComponent(name)}`;
}

/** The proxy URL of a folder a grant covers: what the player appends is the resource in it. */
export function proxyFolderUrl(token: string): string {
  return `${PROXY_PREFIX}${token}/`;
}

/** The last path segment of `url`, kept to safe characters, for `proxyUrl`'s name. */
export function fileNameOf(url: string, fallback = 'media'): string {
  let segment = '';
  try {
    segment = decodeURIComponent(new URL(url).pathname.split('/').pop() ?? '');
  } catch {
    segment = '';
  }
  const safe = segment.replace(/[^A-Za-z0-9._-]+/g, '_').slice(-64);
  return safe === '' || /^[._]+$/.test(safe) ? fallback : safe;
}
