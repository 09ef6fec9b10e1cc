import { hkdfSync } from 'node:crypto';
import type { Redis } from 'ioredis';
import type pg from 'pg';
import type { StartupConfig } from '../config/index.js';
import type { RuntimeSettings } from '../settings/index.js';
import { emailNotConfigured, type Mailer } from '../mail/index.js';
import { EmailSignup } from './methods/email-signup.js';
import { OAuth2Method } from './methods/oauth2/oauth2-method.js';
import { OpaqueMethod } from './methods/opaque.js';
import { OpaqueOnServer } from './methods/opaque-on-server.js';
import type { Logger } from '../observability/index.js';
import { PasswordChange } from './methods/password-change.js';
import { PasswordReset } from './methods/password-reset.js';
import { PasswordMethod } from './methods/password.js';
import { TotpMethod } from './methods/totp.js';
import { relyingParty, WebAuthnMethod } from './methods/webauthn.js';
import { RateLimits } from './rate-limits.js';
import { Registration, type ReviewStarter } from './registration.js';
import { SecretBox } from '../crypto/index.js';
import { AccessTokens } from './sessions/access-tokens.js';
import type { RevocationPublisher } from './sessions/revocation.js';
import { SessionStore } from './sessions/session-store.js';
import { RecentSignIn } from './recent-sign-in.js';
import { SignInGuard } from './sign-in-guard.js';
import { SignIn } from './sign-in.js';
import { UserAdmin } from './user-admin.js';

/**
 * The accounts module as one object: what gateways, the worker's review activities and the
 * management endpoint use. Built once per process from its connections and startup config.
 */
export interface AccountsDeps {
  pool: pg.Pool;
  redis: Redis;
  settings: RuntimeSettings;
  config: Pick<StartupConfig, 'jwt' | 'auth' | 'credential_encryption_key' | 'credential_encryption_previous_keys' | 'security'> & {
    /**
     * Its rp_name is what authenticator apps show for TOTP entries ('svc' without it); passkeys
     * need rp_origin and rp_id as well (without them passkey ceremonies answer `unavailable`).
     */
    webauthn?: Pick<StartupConfig['webauthn'], 'rp_name'> & Partial<Pick<StartupConfig['webauthn'], 'rp_origin' | 'rp_id'>>;
  };
  reviews: ReviewStarter;
  /** Sends signup confirmations and reset codes; without it email flows answer `failed_precondition`. */
  mailer?: Pick<Mailer, 'configured' | 'requireConfigured' | 'send'>;
  /** Where users open the service (`server.public_url`, else `webauthn.rp_origin`): links in emails. */
  publicUrl?: string;
  /** Key prefix in Redis (login state, challenges, rate limits). */
  redisPrefix?: string;
  /** Announces revoked sessions to every gateway (NATS); without it nothing open is closed. */
  revocations?: RevocationPublisher;
  /** Warnings that do not fail a request (a password upgrade that did not happen). */
  logger?: Logger;
}

export class Accounts {
  readonly box: SecretBox;
  readonly tokens: AccessTokens;
  readonly sessions: SessionStore;
  readonly limits: RateLimits;
  readonly registration: Registration;
  readonly signIn: SignIn;
  readonly password: PasswordMethod;
  readonly opaque: OpaqueMethod;
  /** OPAQUE with a password the server holds (direct sign-ins), in a worker thread. */
  readonly opaqueOnServer: OpaqueOnServer;
  readonly totp: TotpMethod;
  readonly emailSignup: EmailSignup;
  readonly passwordReset: PasswordReset;
  readonly passwordChange: PasswordChange;
  /** The proof of a recent sign-in that changing how the account signs in needs. */
  readonly recentSignIn: RecentSignIn;
  readonly webauthn: WebAuthnMethod;
  readonly oauth2: OAuth2Method;
  /** `svc user` and the admin endpoints. */
  readonly admin: UserAdmin;

  constructor(readonly deps: AccountsDeps) {
    const { pool, redis, settings, config } = deps;
    const prefix = deps.redisPrefix ?? 'svc';
    this.box = new SecretBox([config.credential_encryption_key, ...config.credential_encryption_previous_keys]);
    this.tokens = new AccessTokens({ current: config.jwt.secret, previous: config.jwt.previous_secrets }, config.jwt.access_token_ttl_seconds);
    this.sessions = new SessionStore(pool, config.auth.refresh_token_ttl_days * 86_400_000, refreshSuccessorKey(config.credential_encryption_key), deps.revocations);
    this.limits = new RateLimits(redis, `${prefix}:rl`);
    const guard = new SignInGuard(this.limits);
    this.registration = new Registration({ pool, box: this.box, settings, reviews: deps.reviews, reviewTtlMs: config.auth.review_ttl_hours * 3_600_000 });
    this.signIn = new SignIn({ pool, redis, sessions: this.sessions, tokens: this.tokens, prefix });
    const methodDeps = { db: pool, settings, registration: this.registration, signIn: this.signIn, guard };
    this.opaqueOnServer = new OpaqueOnServer(config.security.opaque_server_setup_secret);
    this.password = new PasswordMethod({ ...methodDeps, opaqueOnServer: this.opaqueOnServer, ...(deps.logger ? { logger: deps.logger } : {}) });
    this.opaque = new OpaqueMethod({ ...methodDeps, redis, serverSetup: config.security.opaque_server_setup_secret, prefix });
    const mailer = deps.mailer ?? { configured: false, requireConfigured: () => { throw emailNotConfigured(); }, send: () => Promise.reject(emailNotConfigured()) };
    const publicUrl = deps.publicUrl ?? '';
    this.emailSignup = new EmailSignup({ pool, box: this.box, settings, registration: this.registration, limits: this.limits, mailer, opaque: this.opaque, publicUrl });
    this.passwordReset = new PasswordReset({ pool, limits: this.limits, sessions: this.sessions, mailer, opaque: this.opaque, publicUrl });
    this.recentSignIn = new RecentSignIn({ pool, guard, opaqueOnServer: this.opaqueOnServer });
    this.passwordChange = new PasswordChange({ pool, sessions: this.sessions, recentSignIn: this.recentSignIn, opaque: this.opaque });
    this.totp = new TotpMethod({ db: pool, box: this.box, signIn: this.signIn, limits: this.limits, issuer: config.webauthn?.rp_name ?? 'svc' });
    this.admin = new UserAdmin({ pool, sessions: this.sessions, opaque: this.opaque });
    this.webauthn = new WebAuthnMethod({ ...methodDeps, redis, prefix, rp: relyingParty(config.webauthn), decoyKey: webauthnDecoyKey(config.credential_encryption_key) });
    this.oauth2 = new OAuth2Method({ pool, redis, settings, box: this.box, registration: this.registration, signIn: this.signIn, limits: this.limits, prefix });
  }
}

/** A key of its own for the successor of a refresh token (session-store.ts), derived so no new secret is needed. */
function refreshSuccessorKey(credentialEncryptionKey: string): Buffer {
  return Buffer.from(hkdfSync('sha256', Buffer.from(credentialEncryptionKey, 'hex'), Buffer.alloc(0), 'svc refresh token successors', 32));
}

/** A key of its own for WebAuthn's stand-in credential ids, derived so no new secret is needed. */
function webauthnDecoyKey(credentialEncryptionKey: string): Buffer {
  return Buffer.from(hkdfSync('sha256', Buffer.from(credentialEncryptionKey, 'hex'), Buffer.alloc(0), 'svc webauthn decoy credential ids', 32));
}
