import type { Migration } from './types.js';

/**
 * Accounts (`accounts/`): users, one table of credentials per sign-in method, sessions with
 * their rotating refresh tokens, registration reviews and emailed one-time codes. Secrets that
 * must be read back (TOTP secrets, provider tokens, review payloads) are stored encrypted by
 * `crypto/secret-box.ts`; secrets that are only compared (refresh tokens, codes) as hashes.
 */
export const migration0005: Migration = {
  id: '0005_accounts',
  up: `
    CREATE TABLE users (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      -- As entered after NFKC; username_key is its case-folded form and carries uniqueness.
      username text NOT NULL,
      username_key text NOT NULL UNIQUE,
      display_name text NOT NULL,
      email text,
      email_key text UNIQUE,
      role text NOT NULL DEFAULT 'user' CHECK (role IN ('root', 'admin', 'user')),
      state text NOT NULL DEFAULT 'active' CHECK (state IN ('active', 'banned')),
      -- The registration review that created the account: approval retried is one account.
      review_id text UNIQUE,
      created_at timestamptz NOT NULL DEFAULT now(),
      last_login_at timestamptz
    );

    -- One local password per user: an OPAQUE registration record or an Argon2id PHC string.
    CREATE TABLE password_credentials (
      user_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
      kind text NOT NULL CHECK (kind IN ('opaque', 'argon2')),
      secret text NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now()
    );

    CREATE TABLE webauthn_credentials (
      -- The credential id, base64url, as authenticators and browsers send it.
      id text PRIMARY KEY,
      user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      public_key bytea NOT NULL,
      counter bigint NOT NULL,
      transports text[] NOT NULL DEFAULT '{}',
      name text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      last_used_at timestamptz
    );
    CREATE INDEX webauthn_credentials_user_idx ON webauthn_credentials (user_id);

    CREATE TABLE oauth2_bindings (
      instance_name text NOT NULL,
      subject text NOT NULL,
      user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      -- Encrypted JSON of the provider's tokens.
      provider_tokens text,
      created_at timestamptz NOT NULL DEFAULT now(),
      last_login_at timestamptz,
      PRIMARY KEY (instance_name, subject)
    );
    CREATE INDEX oauth2_bindings_user_idx ON oauth2_bindings (user_id);

    CREATE TABLE totp_credentials (
      user_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
      secret text NOT NULL,
      -- NULL while enrolment waits for the first code.
      enabled_at timestamptz,
      -- The last time step accepted: a code is good once.
      last_step bigint NOT NULL DEFAULT 0
    );

    CREATE TABLE recovery_codes (
      user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      code_hash text NOT NULL,
      used_at timestamptz,
      PRIMARY KEY (user_id, code_hash)
    );

    -- A session is one sign-in on one device; its refresh tokens are one rotation family.
    CREATE TABLE sessions (
      id uuid PRIMARY KEY,
      user_id uuid REFERENCES users (id) ON DELETE CASCADE,
      -- Guests have no user row.
      guest_name text,
      method text NOT NULL,
      user_agent text,
      ip text,
      created_at timestamptz NOT NULL DEFAULT now(),
      last_used_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL,
      revoked_at timestamptz,
      revoke_reason text,
      CHECK ((user_id IS NULL) <> (guest_name IS NULL))
    );
    CREATE INDEX sessions_user_idx ON sessions (user_id) WHERE revoked_at IS NULL;
    CREATE INDEX sessions_expiry_idx ON sessions (expires_at);

    CREATE TABLE refresh_tokens (
      token_hash bytea PRIMARY KEY,
      session_id uuid NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
      issued_at timestamptz NOT NULL DEFAULT now(),
      -- Set when exchanged for the next token; presenting it again is reuse.
      rotated_at timestamptz
    );
    CREATE INDEX refresh_tokens_session_idx ON refresh_tokens (session_id);

    -- Mirrors each registration-review workflow, so sign-in can say "pending" or "rejected"
    -- and a pending signup holds its username.
    CREATE TABLE registration_reviews (
      id text PRIMARY KEY,
      mode text NOT NULL CHECK (mode IN ('password', 'email', 'webauthn', 'oauth2')),
      username text NOT NULL,
      username_key text NOT NULL,
      -- The passkey's credential id or the provider binding (instance/subject).
      external_key text,
      state text NOT NULL CHECK (state IN ('pending', 'approved', 'rejected', 'expired')),
      -- Encrypted: what approval needs to create the account.
      payload text NOT NULL,
      reviewer text,
      reason text,
      user_id uuid,
      created_at timestamptz NOT NULL DEFAULT now(),
      decided_at timestamptz
    );
    CREATE UNIQUE INDEX registration_reviews_pending_username ON registration_reviews (username_key) WHERE state = 'pending';
    CREATE INDEX registration_reviews_username_idx ON registration_reviews (username_key, created_at DESC);
    CREATE INDEX registration_reviews_external_idx ON registration_reviews (external_key, created_at DESC) WHERE external_key IS NOT NULL;

    -- Emailed one-time codes: signup confirmation and password reset.
    CREATE TABLE email_codes (
      id uuid PRIMARY KEY,
      purpose text NOT NULL CHECK (purpose IN ('signup', 'reset')),
      email_key text NOT NULL,
      code_hash text NOT NULL,
      user_id uuid REFERENCES users (id) ON DELETE CASCADE,
      -- Encrypted: the signup waiting for confirmation (username, display name, address).
      payload text,
      attempts integer NOT NULL DEFAULT 0,
      created_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL,
      consumed_at timestamptz
    );
    CREATE INDEX email_codes_email_idx ON email_codes (email_key, purpose, created_at DESC);
  `,
};
