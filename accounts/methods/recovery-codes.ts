import { createHash, randomInt } from 'node:crypto';
import type { Queryable } from '../users.js';

/**
 * Single-use recovery codes of two-factor authentication: the way in when the authenticator is
 * lost. Shown once when made; only their SHA-256 hashes are stored. A plain hash is enough
 * (no Argon2) because each code carries 50 random bits and guessing is rate limited: there is
 * no dictionary to run against a leaked hash.
 */
export const RECOVERY_CODE_COUNT = 10;

/** Lower-case RFC 4648 base32: no 0/1/8/9, so nothing reads as O, l or B. */
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';
const CODE_CHARS = 10;
const CANONICAL = /^[a-z2-7]{10}$/;

/** A fresh set of codes as shown to the user, `xxxxx-xxxxx`. */
export function newRecoveryCodes(): string[] {
  // A set: two equal codes would break the (user_id, code_hash) key, however unlikely.
  const codes = new Set<string>();
  while (codes.size < RECOVERY_CODE_COUNT) {
    const chars = Array.from({ length: CODE_CHARS }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
    codes.add(`${chars.slice(0, 5)}-${chars.slice(5)}`);
  }
  return [...codes];
}

/**
 * The stored form of what a user typed, or undefined when it cannot be a recovery code. Case,
 * spaces and dashes are ignored: people copy codes by hand.
 */
export function recoveryCodeHash(typed: string): string | undefined {
  const canonical = typed.replace(/[\s-]/g, '').toLowerCase();
  if (!CANONICAL.test(canonical)) return undefined;
  return createHash('sha256').update(canonical).digest('hex');
}

/** Replaces every code of the user (used or not) with `codes`. */
export async function replaceRecoveryCodes(db: Queryable, userId: string, codes: readonly string[]): Promise<void> {
  await db.query('DELETE FROM recovery_codes WHERE user_id = $1', [userId]);
  await db.query('INSERT INTO recovery_codes (user_id, code_hash) SELECT $1, unnest($2::text[])', [userId, codes.map((code) => recoveryCodeHash(code)!)]);
}

/**
 * Spends one code. The conditional update is the whole check, so two requests racing with the
 * same code cannot both get through.
 */
export async function spendRecoveryCode(db: Queryable, userId: string, typed: string): Promise<boolean> {
  const hash = recoveryCodeHash(typed);
  if (!hash) return false;
  const { rowCount } = await db.query('UPDATE recovery_codes SET used_at = now() WHERE user_id = $1 AND code_hash = $2 AND used_at IS NULL', [userId, hash]);
  return rowCount === 1;
}

export async function deleteRecoveryCodes(db: Queryable, userId: string): Promise<void> {
  await db.query('DELETE FROM recovery_codes WHERE user_id = $1', [userId]);
}
