/**
 * A whole service in the test process: `startService` with the gateway and actor roles on a
 * fresh database of the test stack, as `svc serve` runs it, plus the client-side steps every
 * gateway test needs (sign up, call the API). Tests that need a second gateway start a second
 * bed on the same database (`databaseUrl`).
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, requireValid } from '../../config/load.js';
import type { StartupConfig } from '../../config/types.js';
import { AppError } from '../../errors/app-error.js';
import { createLogger, type Logger } from '../../observability/logger.js';
import type { Role } from '../../server/roles.js';
import { startService, type RunningService } from '../../server/service.js';
import { migrate } from '../../postgres/migrate.js';
import { createPool } from '../../postgres/pool.js';
import { uniqueIp } from '../fixtures/client-address.js';
import { generatedSecrets } from '../harness/replica.js';
import { freePort, freshDatabase, testStack } from '../harness/stack.js';
import { conformanceFor } from './openapi-conformance.js';

export const ALLOWED_ORIGIN = 'https://watch.example.com';
/** The password `signUp()` registers every account with. */
export const BED_PASSWORD = 'correct horse battery staple';

export interface Answer<T = Record<string, unknown>> {
  status: number;
  body: T;
  headers: Headers;
}

export interface Member {
  userId: string;
  username: string;
  token: string;
  sessionId: string;
}

export interface GatewayBed {
  url: string;
  /** host:port of the gRPC API. */
  grpcAddress: string;
  /** The metrics listener (`metrics.listen`): `/metrics` and the detailed `/health/ready`. */
  metricsUrl: string;
  databaseUrl: string;
  config: StartupConfig;
  service: RunningService;
  /** Writes runtime settings of one group, as an operator would. */
  set(group: string, values: Record<string, unknown>): Promise<void>;
  /** A new user with an account, signed in (direct password signup). */
  signUp(prefix?: string): Promise<Member>;
  /** A new user promoted to service role `admin` (or `root`; read from the session on every request). */
  admin(prefix?: string, role?: 'admin' | 'root'): Promise<Member>;
  /** A new guest session. */
  guest(displayName?: string): Promise<Member>;
  /**
   * A JSON request to this bed's API; `token` becomes the bearer. Every answer to an `/api/`
   * path is checked against `/api/openapi.json` (route documented, status declared, body valid
   * against its schema) and a mismatch rejects the call, failing the test.
   */
  call<T = Record<string, unknown>>(method: string, path: string, body?: unknown, token?: string, headers?: Record<string, string>): Promise<Answer<T>>;
  close(): Promise<void>;
}

const logger = createLogger({ level: process.env.SVCTEST_LOG_LEVEL ?? 'fatal', destination: 'stderr' });
const secretsOnce = generatedSecrets();

export interface BedOptions {
  roles?: Role[];
  /** Share the database (and so the rooms and users) of another bed. */
  databaseUrl?: string;
  env?: Record<string, string>;
  /** The service's logger, for tests that read what it logs (default: fatal only, to stderr). */
  logger?: Logger;
  /** The built web client to serve instead of dist/web-client (a test that changes a built file works on a copy). */
  webClientRoot?: string;
  /** Configure the stack's LiveKit server as the SFU (sfu.*); the stack must run one (SVCTEST_SFU_*). */
  sfu?: boolean;
}

/** The sfu.* startup keys of the stack's LiveKit server. */
export function sfuEnv(): Record<string, string> {
  const sfu = testStack().sfu;
  if (!sfu) throw new Error('this test needs the stack\'s LiveKit server: SVCTEST_SFU_URL, SVCTEST_SFU_API_KEY and SVCTEST_SFU_API_SECRET are not set');
  return { SVC_SFU_URL: sfu.url, SVC_SFU_PUBLIC_URL: sfu.publicUrl, SVC_SFU_API_KEY: sfu.apiKey, SVC_SFU_API_SECRET: sfu.apiSecret };
}

/**
 * Migrates a bed's fresh database. Setting up is not what a test checks: with four test files
 * starting services on two cores, a new connection once waited past the pool's 5 s connect
 * limit (DATABASE_TIMEOUTS.connectMs, right for a live service) and failed a whole file's
 * `before`. Set-up tries such a timeout again; any other error fails at once.
 */
async function migrateForSetUp(databaseUrl: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const pool = createPool({ url: databaseUrl, max: 2 });
    try {
      await migrate(pool, logger);
      return;
    } catch (err) {
      if (attempt >= 3 || !(err instanceof Error && /connection timeout/i.test(err.message))) throw err;
    } finally {
      await pool.end();
    }
  }
}

export async function startGatewayBed(label: string, options: BedOptions = {}): Promise<GatewayBed> {
  const stack = testStack();
  const databaseUrl = options.databaseUrl ?? (await freshDatabase(label));
  if (!options.databaseUrl) await migrateForSetUp(databaseUrl);
  const dataDir = await mkdtemp(join(tmpdir(), 'svc-gateway-'));
  const envWithFreshPorts = async (): Promise<Record<string, string>> => ({
    ...(await secretsOnce),
    SVC_DATABASE_URL: databaseUrl,
    SVC_REDIS_URL: stack.redisUrl,
    SVC_NATS_URL: stack.natsUrl,
    // Each bed's rooms are its own: several test files share one NATS.
    SVC_NATS_SUBJECT_PREFIX: options.databaseUrl ? prefixOf(options.databaseUrl) : prefixOf(databaseUrl),
    SVC_TEMPORAL_ADDRESS: stack.temporalAddress,
    SVC_DATA_DIR: dataDir,
    SVC_SERVER_HOST: '127.0.0.1',
    SVC_SERVER_PORT: String(await freePort()),
    SVC_GRPC_HOST: '127.0.0.1',
    SVC_GRPC_PORT: String(await freePort()),
    // RTMP ingest (livestreams) listens too: a port each, never the shared default 1935.
    SVC_RTMP_HOST: '127.0.0.1',
    SVC_RTMP_PORT: String(await freePort()),
    SVC_METRICS_LISTEN: `127.0.0.1:${await freePort()}`,
    // Tests speak for many clients, told apart by X-Forwarded-For (rate limits are per address),
    // as if through a proxy on this host.
    SVC_SERVER_TRUST_PROXY: 'true',
    SVC_SERVER_TRUSTED_PROXIES: '127.0.0.1/32',
    SVC_SERVER_CORS_ALLOWED_ORIGINS: ALLOWED_ORIGIN,
    SVC_WEBAUTHN_RP_ORIGIN: 'https://svc.test',
    SVC_WEBAUTHN_RP_ID: 'svc.test',
    ...(options.sfu ? sfuEnv() : {}),
    ...options.env,
  });
  // A port free when picked can be taken before the service binds it (another test process
  // picking the same one): such a start is tried again on other ports.
  let config: StartupConfig;
  let service: RunningService;
  for (let attempt = 1; ; attempt++) {
    const env = await envWithFreshPorts();
    delete env.SVC_MANAGEMENT_TOKEN;
    delete env.SVC_MANAGEMENT_ENDPOINT;
    config = requireValid(await loadConfig({ env }), 'server');
    try {
      service = await startService({ config, roles: options.roles ?? ['gateway', 'actors'], logger: options.logger ?? logger, ...(options.webClientRoot ? { webClientRoot: options.webClientRoot } : {}) });
      break;
    } catch (err) {
      if (attempt >= 3 || !(err instanceof AppError && err.code === 'unavailable' && /already in use/.test(err.message))) throw err;
    }
  }
  const url = service.httpUrl ?? '';

  const call: GatewayBed['call'] = async (method, path, body, token, headers = {}) => {
    const response = await fetch(`${url}${path}`, {
      method,
      headers: {
        'x-forwarded-for': uniqueIp(),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...headers,
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    const problem = (await conformanceFor(url)).check(method, path, response.status, text);
    if (problem) throw new Error(`response does not conform to /api/openapi.json: ${problem}`);
    return { status: response.status, body: (text ? JSON.parse(text) : {}) as never, headers: response.headers };
  };
  const set: GatewayBed['set'] = (group, values) =>
    service.settings.update(group, values, { actor: 'test', source: 'test', replicaId: config.replica_id }).then(() => undefined);
  await set('user', { enablePasswordSignup: true });

  const bed: GatewayBed = {
    url,
    grpcAddress: service.grpcAddress ?? '',
    metricsUrl: service.metricsUrl ?? '',
    databaseUrl,
    config,
    service,
    set,
    call,
    async signUp(prefix = 'user') {
      const username = `${prefix}_${randomUUID().slice(0, 8)}`;
      const answer = await call<{ accessToken: string; sessionId: string; user: { id: string } }>(
        'POST',
        '/api/auth/password/register',
        { username, password: BED_PASSWORD },
        undefined,
        { 'x-svc-client': 'native' },
      );
      if (answer.status !== 201) throw new Error(`signup failed: ${answer.status} ${JSON.stringify(answer.body)}`);
      return { userId: answer.body.user.id, username, token: answer.body.accessToken, sessionId: answer.body.sessionId };
    },
    async admin(prefix = 'admin', role = 'admin') {
      const member = await bed.signUp(prefix);
      const pool = createPool({ url: databaseUrl, max: 1 });
      try {
        await pool.query(`UPDATE users SET role = $2 WHERE id = $1`, [member.userId, role]);
      } finally {
        await pool.end();
      }
      return member;
    },
    async guest(displayName = 'Guest') {
      const answer = await call<{ accessToken: string; sessionId: string; guest: { id: string } }>(
        'POST',
        '/api/auth/guest',
        { displayName },
        undefined,
        { 'x-svc-client': 'native' },
      );
      if (answer.status !== 200) throw new Error(`guest sign-in failed: ${answer.status} ${JSON.stringify(answer.body)}`);
      return { userId: answer.body.guest.id, username: displayName, token: answer.body.accessToken, sessionId: answer.body.sessionId };
    },
    close: () => service.stop(),
  };
  return bed;
}

function prefixOf(databaseUrl: string): string {
  return `t${databaseUrl.split('/').pop()!.replace(/[^A-Za-z0-9]/g, '').slice(-24)}`;
}
