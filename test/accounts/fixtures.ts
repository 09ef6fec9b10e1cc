/**
 * An accounts test bed: a fresh migrated database, the stack's Redis under a key prefix of
 * its own, runtime settings, the accounts module and the public HTTP app serving it, on a
 * free loopback port. Tests talk HTTP to it the way clients do.
 */
import { once } from 'node:events';
import { randomBytes, randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as opaque from '@serenity-kit/opaque';
import { Redis } from 'ioredis';
import type pg from 'pg';
import { Accounts } from '../../accounts/accounts.js';
import type { Mailer } from '../../mail/mailer.js';
import type { ReviewStarter } from '../../accounts/registration.js';
import type { RegistrationDecisions } from '../../workflows/decisions.js';
import { capturingLogger, startReviewBed, type ReviewBed } from '../workflows/fixtures.js';
import { registrationReviewId } from '../../workflows/ids.js';
import type { ReviewClient } from '../../workflows/review-client.js';
import { defaultConfig } from '../../config/defaults.js';
import { generateSecrets } from '../../config/secrets.js';
import { createHttpApp } from '../../gateways/http/app.js';
import { createLogger } from '../../observability/logger.js';
import { createMetrics } from '../../observability/metrics.js';
import { RuntimeSettings } from '../../settings/runtime-settings.js';
import { migrate } from '../../postgres/migrate.js';
import { createPool } from '../../postgres/pool.js';
import { fixedProbe } from '../gateways/http/fixtures.js';
import { freshDatabase, testStack } from '../harness/stack.js';
import { httpServer } from '../../gateways/http/request-listener.js';

export const logger = createLogger({ level: process.env.SVCTEST_LOG_LEVEL ?? 'silent', destination: 'stderr' });

/** A review starter that records what it was asked, for tests that stop before Temporal. */
export class RecordingReviews implements ReviewStarter {
  readonly started: Array<Parameters<ReviewStarter['startRegistrationReview']>[0] & { reviewId: string }> = [];
  startRegistrationReview(input: Parameters<ReviewStarter['startRegistrationReview']>[0]): Promise<void> {
    this.started.push({ ...input, reviewId: registrationReviewId(input.mode, input.subjectKey) });
    return Promise.resolve();
  }
}

/** The relying party of every bed: passkey ceremonies in tests claim this origin. */
// Sections start from the registry's defaults, so a startup key added there needs no edit here.
const defaults = defaultConfig();

export const WEBAUTHN = { ...defaults.webauthn, rp_origin: 'https://app.svc.test', rp_id: 'svc.test', rp_name: 'svc' } as const;

export interface AccountsBed {
  url: string;
  pool: pg.Pool;
  redis: Redis;
  settings: RuntimeSettings;
  accounts: Accounts;
  reviews: RecordingReviews;
  /** Writes runtime settings of one group, as an operator would. */
  set(group: string, values: Record<string, unknown>): Promise<void>;
  close(): Promise<void>;
}

export async function startAccountsBed(
  label: string,
  options: { reviews?: ReviewStarter; publicUrl?: string; mailer?: Mailer; reviewTtlHours?: number; /** Serves the admin review endpoints. */ adminReviews?: ReviewClient } = {},
): Promise<AccountsBed> {
  const stack = testStack();
  const databaseUrl = await freshDatabase(label);
  const pool = createPool({ url: databaseUrl, max: 8, logger });
  await migrate(pool, logger);
  const redis = new Redis(stack.redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: true });
  redis.on('error', () => undefined);
  await redis.connect();
  const settings = await RuntimeSettings.start({ pool, connectionString: databaseUrl, logger, replicaId: 'test' });
  const secrets = await generateSecrets();
  const reviews = new RecordingReviews();
  const accounts = new Accounts({
    pool,
    redis,
    settings,
    reviews: options.reviews ?? reviews,
    ...(options.mailer ? { mailer: options.mailer } : {}),
    publicUrl: options.publicUrl ?? 'https://svc.test',
    redisPrefix: `t:${randomBytes(6).toString('hex')}`,
    config: {
      jwt: { ...defaults.jwt, secret: secrets['jwt.secret'], previous_secrets: [], access_token_ttl_seconds: 900 },
      auth: { ...defaults.auth, refresh_token_ttl_days: 30, review_ttl_hours: options.reviewTtlHours ?? 168 },
      credential_encryption_key: secrets.credential_encryption_key,
      credential_encryption_previous_keys: [],
      security: { ...defaults.security, opaque_server_setup_secret: secrets['security.opaque_server_setup_secret'] },
      webauthn: WEBAUTHN,
    },
  });
  const app = createHttpApp({
    // Tests speak for many clients, told apart by X-Forwarded-For, as behind a proxy on this host.
    config: { server: { ...defaults.server, host: '127.0.0.1', port: 0, public_url: '', advertise_url: '', trust_proxy: true, trusted_proxies: ['127.0.0.1/32'], cors_allowed_origins: [] } },
    logger,
    readiness: fixedProbe([]),
    metrics: createMetrics().http,
    api: { accounts, cookies: { secure: false }, ...(options.adminReviews ? { reviews: options.adminReviews } : {}) },
  });
  const server: Server = httpServer(app);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    pool,
    redis,
    settings,
    accounts,
    reviews,
    async set(group, values) {
      await settings.update(group, values, { actor: 'test', source: 'test', replicaId: 'test' });
    },
    async close() {
      server.closeAllConnections();
      server.close();
      await settings.stop();
      redis.disconnect();
      await pool.end();
    },
  };
}

export interface Answer<T = Record<string, unknown>> {
  status: number;
  body: T;
  headers: Headers;
}

/** A JSON request; the answer's body parsed (or {} when empty). */
export async function call<T = Record<string, unknown>>(url: string, method: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer<T>> {
  const response = await fetch(url, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : {}) as T, headers: response.headers };
}

export const bearer = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}` });
export const native = { 'x-svc-client': 'native' };

export { uniqueIp } from '../fixtures/client-address.js';

/** A username no other test uses. */
export const uname = (prefix = 'user'): string => `${prefix}_${randomUUID().slice(0, 8)}`;

/** The OPAQUE client side of registration, as the web client runs it. */
export async function opaqueRegister(url: string, username: string, password: string, extra: Record<string, unknown> = {}): Promise<Answer> {
  await opaque.ready;
  const { clientRegistrationState, registrationRequest } = opaque.client.startRegistration({ password });
  const start = await call<{ registrationResponse: string }>(`${url}/api/auth/opaque/register/start`, 'POST', { username, registrationRequest });
  if (start.status !== 200) return start;
  const { registrationRecord } = opaque.client.finishRegistration({ clientRegistrationState, registrationResponse: start.body.registrationResponse, password });
  return call(`${url}/api/auth/opaque/register/finish`, 'POST', { username, registrationRecord, ...extra }, native);
}

/**
 * The OPAQUE client side of login. When the password is wrong the client itself finds out
 * (finishLogin gives nothing) and never sends a proof: then the answer is `{client: 'refused'}`.
 */
export async function opaqueLogin(
  url: string,
  username: string,
  password: string,
  headers: Record<string, string> = {},
): Promise<Answer | { status: 'client_refused'; start: Answer }> {
  await opaque.ready;
  const { clientLoginState, startLoginRequest } = opaque.client.startLogin({ password });
  const start = await call<{ loginId: string; loginResponse: string }>(`${url}/api/auth/opaque/login/start`, 'POST', { username, startLoginRequest }, headers);
  if (start.status !== 200) return start;
  const finished = opaque.client.finishLogin({ clientLoginState, loginResponse: start.body.loginResponse, password });
  if (!finished) return { status: 'client_refused', start: start as unknown as Answer };
  return call(`${url}/api/auth/opaque/login/finish`, 'POST', { loginId: start.body.loginId, finishLoginRequest: finished.finishLoginRequest }, { ...native, ...headers });
}

/**
 * An accounts bed whose signups under review run on a real review worker (a task queue of its
 * own), its decisions the accounts module's, and whose admin review endpoints use that worker's
 * client. The worker needs the accounts module and the accounts module the review client, so
 * the worker gets a forwarder that reaches the bed once it exists.
 */
export async function startReviewedAccountsBed(label: string, options: { reviewTtlHours?: number } = {}): Promise<{ bed: AccountsBed; reviews: ReviewBed }> {
  const target: { decisions?: RegistrationDecisions } = {};
  const forward: RegistrationDecisions = {
    approve: (input) => target.decisions!.approve(input),
    reject: (input) => target.decisions!.reject(input),
    expire: (input) => target.decisions!.expire(input),
  };
  const reviews = await startReviewBed(label, { registrations: forward, logger: capturingLogger().logger });
  const bed = await startAccountsBed(label, { reviews: reviews.reviews, adminReviews: reviews.reviews, ...options });
  target.decisions = bed.accounts.registration;
  return { bed, reviews };
}
