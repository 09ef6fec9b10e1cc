import { createHash, randomInt, randomUUID, timingSafeEqual } from 'node:crypto';
import { AppError } from '../../errors/index.js';
import type { Queryable } from '../users.js';

/**
 * Emailed one-time codes (signup confirmation, password reset): eight digits a person can
 * type, also carried by the emailed link. Only a hash is stored. A code is good for
 * CODE_TTL_MINUTES and MAX_ATTEMPTS wrong tries of its row, whichever ends first, and once:
 * a newer code for the same address and purpose replaces the older.
 */
export type CodePurpose = 'signup' | 'reset';

export const CODE_TTL_MINUTES = 15;
const MAX_ATTEMPTS = 5;
const CODE_DIGITS = 8;

export interface IssuedCode {
  id: string;
  code: string;
  expiresAt: Date;
}

export interface LiveCode {
  id: string;
  userId: string | null;
  payload: string | null;
}

/**
 * The expiry to answer when no code was sent (the address has no account, or already has
 * one): the same as a real one, so the answer tells nothing.
 */
export function nominalExpiry(): Date {
  return new Date(Date.now() + CODE_TTL_MINUTES * 60_000);
}

export async function issueCode(db: Queryable, input: { purpose: CodePurpose; emailKey: string; userId?: string; payload?: string }): Promise<IssuedCode> {
  const id = randomUUID();
  const code = String(randomInt(0, 10 ** CODE_DIGITS)).padStart(CODE_DIGITS, '0');
  const { rows } = await db.query<{ expires_at: Date }>(
    `WITH replaced AS (
       UPDATE email_codes SET consumed_at = now() WHERE email_key = $2 AND purpose = $3 AND consumed_at IS NULL
     )
     INSERT INTO email_codes (id, purpose, email_key, code_hash, user_id, payload, expires_at)
     VALUES ($1, $3, $2, $4, $5, $6, now() + make_interval(mins => $7)) RETURNING expires_at`,
    [id, input.emailKey, input.purpose, codeHash(id, code), input.userId ?? null, input.payload ?? null, CODE_TTL_MINUTES],
  );
  return { id, code, expiresAt: rows[0]!.expires_at };
}

/**
 * The live code of an address if `code` is it. Every try spends one attempt of the live row
 * (given back when right), committed at once (so call it outside the transaction that acts on the code); the
 * caller then consumes it with `consumeCode`, which only one request can do.
 */
export async function checkCode(db: Queryable, input: { purpose: CodePurpose; emailKey: string; code: string }): Promise<LiveCode> {
  // The attempt is taken before the code is compared, in one statement: concurrent tries queue
  // on the row lock and each sees the others' counts, so at most MAX_ATTEMPTS are ever compared.
  const { rows } = await db.query<{ id: string; code_hash: string; user_id: string | null; payload: string | null }>(
    `UPDATE email_codes SET attempts = attempts + 1
      WHERE id = (SELECT id FROM email_codes
                   WHERE email_key = $1 AND purpose = $2 AND consumed_at IS NULL AND expires_at > now()
                   ORDER BY created_at DESC LIMIT 1)
        AND attempts < $3 AND consumed_at IS NULL
      RETURNING id, code_hash, user_id, payload`,
    [input.emailKey, input.purpose, MAX_ATTEMPTS],
  );
  const row = rows[0];
  if (!row) throw invalidCode();
  const expected = Buffer.from(row.code_hash, 'hex');
  const given = Buffer.from(codeHash(row.id, input.code.trim()), 'hex');
  if (!timingSafeEqual(expected, given)) throw invalidCode();
  // The right code: its attempt is given back, so a confirmation refused for another reason
  // (a weak password) leaves the code as it was.
  await db.query('UPDATE email_codes SET attempts = attempts - 1 WHERE id = $1', [row.id]);
  return { id: row.id, userId: row.user_id, payload: row.payload };
}

/** Marks the code used; `invalidCode` when another request used it first. */
export async function consumeCode(db: Queryable, id: string): Promise<void> {
  const { rowCount } = await db.query('UPDATE email_codes SET consumed_at = now(), payload = NULL WHERE id = $1 AND consumed_at IS NULL', [id]);
  if ((rowCount ?? 0) === 0) throw invalidCode();
}

/** Removes codes a day past their expiry (the periodic accounts cleanup). */
export async function purgeCodes(db: Queryable): Promise<number> {
  const { rowCount } = await db.query("DELETE FROM email_codes WHERE expires_at < now() - interval '1 day'");
  return rowCount ?? 0;
}

export function invalidCode(): AppError {
  return new AppError('unauthenticated', 'the code is wrong, used or expired; ask for a new one', [{ key: 'code', message: 'is wrong, used or expired' }]);
}

function codeHash(id: string, code: string): string {
  return createHash('sha256').update(`${id}:${code}`).digest('hex');
}
