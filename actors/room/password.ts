/**
 * Room passwords, stored as scrypt hashes: `scrypt$<N>$<r>$<p>$<salt>$<key>` (base64url).
 * The parameters travel with the hash so they can be raised later without invalidating
 * existing rooms. Verification compares derived keys in constant time.
 */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

// OWASP's scrypt baseline (N=2^17, r=8, p=1) costs ~128 MiB per hash; a room password guards
// a watch party, not an account, and is hashed on the actor host's thread pool, so this uses
// N=2^14 (16 MiB, a few ms) and leans on join throttling in the gateways for brute force.
const PARAMS = { N: 16384, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;
const SALT_LENGTH = 16;
/** Enough for N=2^14, r=8 (128·N·r = 16 MiB) with headroom. */
const MAX_MEMORY = 64 * 1024 * 1024;

function derive(password: string, salt: Buffer, options: ScryptOptions, length: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, length, { ...options, maxmem: MAX_MEMORY }, (err, key) =>
      err ? reject(err) : resolve(key),
    );
  });
}

export async function hashRoomPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_LENGTH);
  const key = await derive(password, salt, PARAMS, KEY_LENGTH);
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** False for a wrong password and for a hash this code cannot read (never throws on input). */
export async function verifyRoomPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  const salt = Buffer.from(parts[4] ?? '', 'base64url');
  const expected = Buffer.from(parts[5] ?? '', 'base64url');
  if (![N, r, p].every(Number.isSafeInteger) || salt.length === 0 || expected.length === 0) return false;
  const actual = await derive(password, salt, { N, r, p }, expected.length);
  return timingSafeEqual(actual, expected);
}
