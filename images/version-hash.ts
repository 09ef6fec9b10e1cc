/**
 * The version a served picture's URL names (avatars, room emotes): a hex SHA-256 prefix of its
 * encodings, so a new upload gets a new URL and each URL can be cached forever.
 */
import { createHash } from 'node:crypto';

const LENGTH = 24;
const VERSION_HASH = new RegExp(`^[0-9a-f]{${LENGTH}}$`);

export function versionHash(...encodings: readonly Buffer[]): string {
  const hash = createHash('sha256');
  for (const encoding of encodings) hash.update(encoding);
  return hash.digest('hex').slice(0, LENGTH);
}

/** Whether a URL segment can be a version at all (checked before any lookup). */
export function isVersionHash(text: string): boolean {
  return VERSION_HASH.test(text);
}
