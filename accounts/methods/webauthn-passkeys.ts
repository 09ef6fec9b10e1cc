import type pg from 'pg';
import { AppError } from '../../errors/index.js';
import { withTransaction } from '../../postgres/index.js';
import { insertPasskey, type PasskeyRecord } from '../credentials.js';
import type { Queryable } from '../users.js';

/**
 * Passkey rows (`webauthn_credentials`) as the WebAuthn method reads and changes them after a
 * ceremony has verified. Creating the first passkey of an account goes through
 * `insertInitialCredential` with the account itself; these are the later changes.
 */
export interface StoredPasskey {
  id: string;
  userId: string;
  /** COSE public key. */
  publicKey: Uint8Array;
  counter: number;
  transports: string[];
  name: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}

/** A user collects passkeys per device; the cap keeps options small and the table bounded. */
export const MAX_PASSKEYS_PER_USER = 20;

interface PasskeyRow {
  id: string;
  user_id: string;
  public_key: Buffer;
  counter: string;
  transports: string[];
  name: string;
  created_at: Date;
  last_used_at: Date | null;
}

const COLUMNS = 'id, user_id, public_key, counter, transports, name, created_at, last_used_at';

export async function findPasskey(db: Queryable, id: string): Promise<StoredPasskey | undefined> {
  const { rows } = await db.query<PasskeyRow>(`SELECT ${COLUMNS} FROM webauthn_credentials WHERE id = $1`, [id]);
  return rows[0] && toPasskey(rows[0]);
}

export async function listPasskeys(db: Queryable, userId: string): Promise<StoredPasskey[]> {
  const { rows } = await db.query<PasskeyRow>(`SELECT ${COLUMNS} FROM webauthn_credentials WHERE user_id = $1 ORDER BY created_at, id`, [userId]);
  return rows.map(toPasskey);
}

/**
 * Records a verified assertion. The counter must rise (both zero means the authenticator keeps
 * none); the condition sits in the UPDATE so two concurrent assertions with one counter value,
 * which is what a cloned authenticator produces, cannot both pass. False: refused, nothing changed.
 */
export async function advanceCounter(db: Queryable, id: string, userId: string, counter: number): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE webauthn_credentials SET counter = $3::bigint, last_used_at = now()
      WHERE id = $1 AND user_id = $2 AND (counter < $3::bigint OR (counter = 0 AND $3::bigint = 0))`,
    [id, userId, counter],
  );
  return rowCount === 1;
}

/** Adds a passkey to an existing account, within the per-user cap. */
export async function bindPasskey(pool: pg.Pool, userId: string, passkey: PasskeyRecord): Promise<StoredPasskey> {
  return withTransaction(pool, async (tx) => {
    // The user row lock serialises binds (and deletes) of one account, so the cap holds under races.
    const user = await tx.query('SELECT 1 FROM users WHERE id = $1 FOR UPDATE', [userId]);
    if (user.rowCount !== 1) throw new AppError('unauthenticated', 'the account no longer exists');
    const { rows } = await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM webauthn_credentials WHERE user_id = $1', [userId]);
    if ((rows[0]?.n ?? 0) >= MAX_PASSKEYS_PER_USER) {
      throw new AppError('limit_exceeded', `an account holds at most ${MAX_PASSKEYS_PER_USER} passkeys; delete one first`);
    }
    await ensureCredentialFree(tx, passkey.id);
    await insertPasskeyOnce(tx, userId, passkey);
    return (await findPasskey(tx, passkey.id))!;
  });
}

/**
 * Refuses a credential id that is registered, or held by a pending passkey signup: its approval
 * would then fail on the duplicate id. Ids come from authenticators and are random, so a clash
 * means a client replaying or forging someone's id.
 */
export async function ensureCredentialFree(db: Queryable, id: string): Promise<void> {
  const { rowCount } = await db.query(
    `SELECT 1 FROM webauthn_credentials WHERE id = $1
     UNION ALL SELECT 1 FROM registration_reviews WHERE external_key = $1 AND mode = 'webauthn' AND state = 'pending'`,
    [id],
  );
  if ((rowCount ?? 0) > 0) throw passkeyTaken();
}

/** Inserts a passkey row; a credential id that is already registered is `conflict`, not a crash. */
export async function insertPasskeyOnce(db: Queryable, userId: string, passkey: PasskeyRecord): Promise<void> {
  try {
    await insertPasskey(db, userId, passkey);
  } catch (err) {
    if (isDuplicatePasskey(err)) throw passkeyTaken();
    throw err;
  }
}

export function isDuplicatePasskey(err: unknown): boolean {
  const pgErr = err as { code?: string; constraint?: string };
  return pgErr.code === '23505' && pgErr.constraint === 'webauthn_credentials_pkey';
}

export function passkeyTaken(): AppError {
  return new AppError('conflict', 'this passkey is already registered on this server', [{ key: 'response.id', message: 'is already registered' }]);
}

/**
 * Deletes one of the user's passkeys. The last way into an account is kept: without a password
 * or a provider binding, deleting the only passkey would lock its owner out for good.
 */
export async function deletePasskey(pool: pg.Pool, userId: string, id: string): Promise<void> {
  await withTransaction(pool, async (tx) => {
    await tx.query('SELECT 1 FROM users WHERE id = $1 FOR UPDATE', [userId]);
    const owned = await tx.query('SELECT 1 FROM webauthn_credentials WHERE id = $1 AND user_id = $2', [id, userId]);
    if (owned.rowCount !== 1) throw new AppError('not_found', 'no passkey with this id among your passkeys');
    const { rows } = await tx.query<{ n: number }>(
      `SELECT ((SELECT count(*) FROM webauthn_credentials WHERE user_id = $1 AND id <> $2)
            + (SELECT count(*) FROM password_credentials WHERE user_id = $1)
            + (SELECT count(*) FROM oauth2_bindings WHERE user_id = $1))::int AS n`,
      [userId, id],
    );
    if ((rows[0]?.n ?? 0) === 0) {
      throw new AppError('conflict', 'this is the only way to sign in to your account; add another passkey or a password before deleting it');
    }
    await tx.query('DELETE FROM webauthn_credentials WHERE id = $1 AND user_id = $2', [id, userId]);
  });
}

function toPasskey(row: PasskeyRow): StoredPasskey {
  return {
    id: row.id,
    userId: row.user_id,
    publicKey: new Uint8Array(row.public_key),
    counter: Number(row.counter),
    transports: row.transports,
    name: row.name,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
  };
}
