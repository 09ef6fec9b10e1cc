import type pg from 'pg';
import { AppError } from '../../../errors/index.js';
import { withTransaction } from '../../../postgres/index.js';
import { insertProviderBinding, providerTokensContext, type ProviderBinding } from '../../credentials.js';
import type { SecretBox } from '../../../crypto/index.js';
import type { Queryable } from '../../users.js';

/**
 * Rows of `oauth2_bindings`: which account a provider identity (instance, subject) signs in.
 * Each row records the kind and issuer that vouched for the subject; it signs in only while
 * the instance still has them (`vouchedFor`), since a subject means nothing at another issuer.
 * An account has at most one identity per instance, so "unbind instance X" means one thing.
 * Changes that could leave an account without any way to sign in run under the user's row
 * lock, so two concurrent unbinds cannot each believe the other credential remains.
 */
export interface BindingView {
  instanceName: string;
  createdAt: Date;
  lastLoginAt: Date | null;
}

export interface StoredBinding {
  userId: string;
  /** NULL for a row bound before kinds were recorded whose instance was not configured then. */
  kind: string | null;
  issuer: string | null;
}

export async function findBinding(db: Queryable, instanceName: string, subject: string): Promise<StoredBinding | undefined> {
  const { rows } = await db.query<{ user_id: string; provider_kind: string | null; issuer: string | null }>(
    'SELECT user_id, provider_kind, issuer FROM oauth2_bindings WHERE instance_name = $1 AND subject = $2',
    [instanceName, subject],
  );
  const row = rows[0];
  return row && { userId: row.user_id, kind: row.provider_kind, issuer: row.issuer };
}

/** The stored binding was made with the same provider kind and issuer as `identity` comes from. */
export function vouchedFor(stored: Pick<StoredBinding, 'kind' | 'issuer'>, identity: Pick<ProviderBinding, 'kind' | 'issuer'>): boolean {
  return stored.kind === identity.kind && stored.issuer === identity.issuer;
}

/**
 * A sign-in or re-bind through the binding: fresh provider tokens (sealed), the kind and
 * issuer that vouched this time, and the time.
 */
export async function recordBindingLogin(db: Queryable, box: SecretBox, binding: ProviderBinding): Promise<void> {
  const tokens = binding.tokens ? box.seal(JSON.stringify(binding.tokens), providerTokensContext(binding)) : null;
  await db.query(
    'UPDATE oauth2_bindings SET provider_tokens = $3, provider_kind = $4, issuer = $5, last_login_at = now() WHERE instance_name = $1 AND subject = $2',
    [binding.instanceName, binding.subject, tokens, binding.kind, binding.issuer],
  );
}

export async function listBindings(db: Queryable, userId: string): Promise<Array<BindingView & Pick<StoredBinding, 'kind' | 'issuer'>>> {
  const { rows } = await db.query<{ instance_name: string; created_at: Date; last_login_at: Date | null; provider_kind: string | null; issuer: string | null }>(
    'SELECT instance_name, created_at, last_login_at, provider_kind, issuer FROM oauth2_bindings WHERE user_id = $1 ORDER BY instance_name',
    [userId],
  );
  return rows.map((row) => ({ instanceName: row.instance_name, createdAt: row.created_at, lastLoginAt: row.last_login_at, kind: row.provider_kind, issuer: row.issuer }));
}

/**
 * Binds an identity to a signed-in user. Binding the same identity again refreshes its tokens
 * and, when the instance's issuer changed since, re-stamps it: the owner has just proved both
 * the account and the identity at the new issuer.
 */
export async function bindIdentity(pool: pg.Pool, box: SecretBox, userId: string, binding: ProviderBinding): Promise<BindingView> {
  try {
    return await withTransaction(pool, async (tx) => {
      await lockUser(tx, userId);
      const owner = (await findBinding(tx, binding.instanceName, binding.subject))?.userId;
      if (owner !== undefined && owner !== userId) throw boundElsewhere(binding.instanceName);
      if (owner === undefined) {
        const { rowCount } = await tx.query('SELECT 1 FROM oauth2_bindings WHERE user_id = $1 AND instance_name = $2', [userId, binding.instanceName]);
        if ((rowCount ?? 0) > 0) {
          throw new AppError('conflict', `your account is already bound to another identity at OAuth2 instance ${JSON.stringify(binding.instanceName)}; unbind it first`);
        }
        await insertProviderBinding(tx, box, userId, binding);
      } else {
        await recordBindingLogin(tx, box, binding);
      }
      const { rows } = await tx.query<{ created_at: Date; last_login_at: Date | null }>(
        'SELECT created_at, last_login_at FROM oauth2_bindings WHERE instance_name = $1 AND subject = $2',
        [binding.instanceName, binding.subject],
      );
      return { instanceName: binding.instanceName, createdAt: rows[0]!.created_at, lastLoginAt: rows[0]!.last_login_at };
    });
  } catch (err) {
    // Another request bound (or signed up with) the identity between our check and insert.
    if (isBindingKeyViolation(err)) throw boundElsewhere(binding.instanceName);
    throw err;
  }
}

/** An instance as configured now, as far as deciding which bindings still sign in goes. */
export interface ConfiguredIssuer {
  instanceName: string;
  kind: string;
  issuer: string;
}

/**
 * Removes the user's identity at an instance, unless it is the account's last way to sign in:
 * no password, no passkey and no identity at another configured instance that still vouches
 * for it (same kind and issuer).
 */
export async function unbindIdentity(pool: pg.Pool, userId: string, instanceName: string, configured: ConfiguredIssuer[]): Promise<void> {
  await withTransaction(pool, async (tx) => {
    await lockUser(tx, userId);
    const { rowCount } = await tx.query('SELECT 1 FROM oauth2_bindings WHERE user_id = $1 AND instance_name = $2', [userId, instanceName]);
    if ((rowCount ?? 0) === 0) throw new AppError('not_found', `your account has no identity at OAuth2 instance ${JSON.stringify(instanceName)}`);
    const { rows } = await tx.query<{ others: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM password_credentials WHERE user_id = $1)
           OR EXISTS (SELECT 1 FROM webauthn_credentials WHERE user_id = $1)
           OR EXISTS (SELECT 1 FROM oauth2_bindings b
                        JOIN unnest($3::text[], $4::text[], $5::text[]) AS c (instance_name, provider_kind, issuer)
                          ON c.instance_name = b.instance_name AND c.provider_kind = b.provider_kind AND c.issuer = b.issuer
                       WHERE b.user_id = $1 AND b.instance_name <> $2) AS others`,
      [userId, instanceName, configured.map((c) => c.instanceName), configured.map((c) => c.kind), configured.map((c) => c.issuer)],
    );
    if (!rows[0]?.others) {
      throw new AppError(
        'conflict',
        `OAuth2 instance ${JSON.stringify(instanceName)} is the last way to sign in to this account; add a password, a passkey or another provider before unbinding it`,
      );
    }
    await tx.query('DELETE FROM oauth2_bindings WHERE user_id = $1 AND instance_name = $2', [userId, instanceName]);
  });
}

/** The primary key of oauth2_bindings was violated: the identity was bound concurrently. */
export function isBindingKeyViolation(err: unknown): boolean {
  const pgErr = err as { code?: string; constraint?: string };
  return pgErr.code === '23505' && pgErr.constraint === 'oauth2_bindings_pkey';
}

async function lockUser(tx: pg.PoolClient, userId: string): Promise<void> {
  const { rowCount } = await tx.query('SELECT 1 FROM users WHERE id = $1 FOR UPDATE', [userId]);
  if ((rowCount ?? 0) === 0) throw new AppError('unauthenticated', 'the account no longer exists');
}

function boundElsewhere(instanceName: string): AppError {
  return new AppError('conflict', `this identity at OAuth2 instance ${JSON.stringify(instanceName)} already signs in to another account`);
}
