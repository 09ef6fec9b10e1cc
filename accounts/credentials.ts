import type { ProviderKind } from './methods/oauth2/instances.js';
import type { SecretBox } from '../crypto/index.js';
import type { User } from './model.js';
import { USER_COLUMNS, userFromRow, type Queryable, type UserRow } from './users.js';

/**
 * Credential rows, one table per method. A credential arrives here already checked by its
 * method (`accounts/methods/`); these functions only store and read it, so the same insert
 * serves a direct signup and an approved review.
 */
export type PasswordKind = 'opaque' | 'argon2';

export interface PasskeyRecord {
  /** Credential id, base64url. */
  id: string;
  /** COSE public key, base64url. */
  publicKey: string;
  counter: number;
  transports: string[];
  name: string;
}

export interface ProviderBinding {
  instanceName: string;
  subject: string;
  /**
   * The kind and issuer of the instance that vouched for the subject. A review sealed before
   * they were recorded lacks them: its binding is stored without and never signs in.
   */
  kind: ProviderKind;
  issuer: string;
  /** Provider tokens as JSON; sealed before they are stored. */
  tokens?: Record<string, unknown>;
}

/** What a new account signs in with, as held by a pending review (sealed) or a direct signup. */
export type InitialCredential =
  | { type: 'password'; kind: PasswordKind; secret: string }
  | { type: 'passkey'; passkey: PasskeyRecord }
  | { type: 'oauth2'; binding: ProviderBinding };

export async function setPassword(db: Queryable, userId: string, kind: PasswordKind, secret: string): Promise<void> {
  await db.query(
    `INSERT INTO password_credentials (user_id, kind, secret) VALUES ($1, $2, $3)
     ON CONFLICT (user_id) DO UPDATE SET kind = EXCLUDED.kind, secret = EXCLUDED.secret, updated_at = now()`,
    [userId, kind, secret],
  );
}

export async function findPassword(db: Queryable, userId: string): Promise<{ kind: PasswordKind; secret: string } | undefined> {
  const { rows } = await db.query<{ kind: PasswordKind; secret: string }>('SELECT kind, secret FROM password_credentials WHERE user_id = $1', [userId]);
  return rows[0];
}

export async function insertPasskey(db: Queryable, userId: string, passkey: PasskeyRecord): Promise<void> {
  await db.query(
    'INSERT INTO webauthn_credentials (id, user_id, public_key, counter, transports, name) VALUES ($1, $2, $3, $4, $5, $6)',
    [passkey.id, userId, Buffer.from(passkey.publicKey, 'base64url'), passkey.counter, passkey.transports, passkey.name],
  );
}

export async function insertProviderBinding(db: Queryable, box: SecretBox, userId: string, binding: ProviderBinding): Promise<void> {
  const tokens = binding.tokens ? box.seal(JSON.stringify(binding.tokens), providerTokensContext(binding)) : null;
  await db.query(
    `INSERT INTO oauth2_bindings (instance_name, subject, user_id, provider_tokens, provider_kind, issuer, last_login_at) VALUES ($1, $2, $3, $4, $5, $6, now())`,
    [binding.instanceName, binding.subject, userId, tokens, (binding.kind as ProviderKind | undefined) ?? null, (binding.issuer as string | undefined) ?? null],
  );
}

export function providerTokensContext(binding: Pick<ProviderBinding, 'instanceName' | 'subject'>): string {
  return `oauth2-tokens:${binding.instanceName}:${binding.subject}`;
}

export async function insertInitialCredential(db: Queryable, box: SecretBox, userId: string, credential: InitialCredential): Promise<void> {
  switch (credential.type) {
    case 'password':
      return setPassword(db, userId, credential.kind, credential.secret);
    case 'passkey':
      return insertPasskey(db, userId, credential.passkey);
    case 'oauth2':
      return insertProviderBinding(db, box, userId, credential.binding);
  }
}

/** What a password sign-in reads about an account, in one query on the sign-in hot path. */
export interface PasswordAccount {
  user: User;
  password: { kind: PasswordKind; secret: string } | undefined;
  /** TOTP is enabled: the sign-in needs its second step. */
  secondFactor: boolean;
}

const QUALIFIED_USER_COLUMNS = USER_COLUMNS.split(', ')
  .map((column) => `u.${column}`)
  .join(', ');

export async function findPasswordAccount(db: Queryable, usernameKey: string): Promise<PasswordAccount | undefined> {
  const { rows } = await db.query<UserRow & { kind: PasswordKind | null; secret: string | null; second_factor: boolean }>(
    `SELECT ${QUALIFIED_USER_COLUMNS}, p.kind, p.secret,
            EXISTS (SELECT 1 FROM totp_credentials t WHERE t.user_id = u.id AND t.enabled_at IS NOT NULL) AS second_factor
       FROM users u LEFT JOIN password_credentials p ON p.user_id = u.id
      WHERE u.username_key = $1`,
    [usernameKey],
  );
  const row = rows[0];
  if (!row) return undefined;
  return {
    user: userFromRow(row),
    password: row.kind !== null && row.secret !== null ? { kind: row.kind, secret: row.secret } : undefined,
    secondFactor: row.second_factor,
  };
}
