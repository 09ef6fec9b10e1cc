/**
 * The key of reading an upstream: what is read (`Upstream.identity`) and with which credentials
 * (a digest of the headers it is read with). Whatever is shared between reads of several items,
 * rooms or members (the slice cache's bytes, a media tool's run) is keyed by this, never by the
 * identity alone: an item someone added without a server's token, or a library connected with
 * another account's password, must not be handed what was read with those credentials. Reads
 * without headers keep the identity as it is.
 */
import { createHash } from 'node:crypto';

export function upstreamReadKey(upstream: { identity: string; headers: Record<string, string> }): string {
  const headers = Object.entries(upstream.headers)
    .map(([name, value]): [string, string] => [name.toLowerCase(), value])
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  if (headers.length === 0) return upstream.identity;
  return `${upstream.identity}\0${createHash('sha256').update(JSON.stringify(headers)).digest('base64url')}`;
}
