/**
 * Sign-in throughput and latency on one gateway process, and the time from a reviewer's
 * approve signal to the user's first successful sign-in. Run with `npm run bench:auth`.
 *
 * One `svc serve --role gateway` and, for the approval phase, one `svc serve --role worker`
 * run as real processes on the throwaway stack. Requests carry X-Forwarded-For (the gateway
 * trusts its proxy here) so that many simulated clients, not one address, meet the
 * per-address rate limits; all traffic stays on 127.0.0.1.
 *
 * OPAQUE's client-side key stretching (Argon2id in the client) is set cheap for the bench
 * accounts: it runs in this process, not on the server, and would otherwise measure the
 * bench's own CPU. The server's work does not depend on it.
 */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import * as opaque from '@serenity-kit/opaque';
import { Client, Connection } from '@temporalio/client';
import { ARGON2_PARAMS } from '../accounts/methods/argon2.js';
import { createLogger } from '../observability/logger.js';
import { RuntimeSettings } from '../settings/runtime-settings.js';
import { createPool } from '../postgres/pool.js';
import { generatedSecrets, replicaEnv, startReplica, type Replica } from '../test/harness/replica.js';
import { freePort, freshDatabase, testStack } from '../test/harness/stack.js';
import { runSvc } from '../test/harness/svc-process.js';
import { percentile } from './percentile.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ACCOUNTS = Number(process.env.BENCH_ACCOUNTS ?? 200);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
const ARGON2_CONCURRENCY = Number(process.env.BENCH_ARGON2_CONCURRENCY ?? 4);
const REVIEWS = Number(process.env.BENCH_REVIEWS ?? 50);
/** For profiling, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`. */
const GATEWAY_NODE_OPTIONS = process.env.BENCH_GATEWAY_NODE_OPTIONS;
const PASSWORD = 'bench password 0123';
const KEY_STRETCHING = { 'argon2id-custom': { iterations: 1, memory: 8, parallelism: 1 } } as const;

let base = '';
const headers = (): Record<string, string> => ({
  'content-type': 'application/json',
  'x-svc-client': 'native',
  // An address of the benchmarking range 198.18.0.0/15: a different simulated client per request.
  'x-forwarded-for': `198.${18 + (randomBytes(1)[0]! & 1)}.${randomBytes(1)[0]}.${randomBytes(1)[0]}`,
});

async function post(path: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${base}${path}`, { method: 'POST', headers: headers(), body: JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : {}) as Record<string, unknown> };
}

async function expect(path: string, body: unknown, status: number): Promise<Record<string, unknown>> {
  const answer = await post(path, body);
  if (answer.status !== status) throw new Error(`${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
}

async function opaqueSignup(username: string): Promise<void> {
  const { clientRegistrationState, registrationRequest } = opaque.client.startRegistration({ password: PASSWORD });
  const start = await expect('/api/auth/opaque/register/start', { username, registrationRequest }, 200);
  const { registrationRecord } = opaque.client.finishRegistration({
    clientRegistrationState,
    registrationResponse: String(start.registrationResponse),
    password: PASSWORD,
    keyStretching: KEY_STRETCHING,
  });
  await expect('/api/auth/opaque/register/finish', { username, registrationRecord }, 201);
}

/** One OPAQUE sign-in; returns the time spent in the two HTTP round trips (client crypto excluded). */
async function opaqueSignIn(username: string): Promise<number> {
  const { clientLoginState, startLoginRequest } = opaque.client.startLogin({ password: PASSWORD });
  let started = performance.now();
  const start = await expect('/api/auth/opaque/login/start', { username, startLoginRequest }, 200);
  let spent = performance.now() - started;
  const finished = opaque.client.finishLogin({ clientLoginState, loginResponse: String(start.loginResponse), password: PASSWORD, keyStretching: KEY_STRETCHING });
  if (!finished) throw new Error('the server did not prove the record');
  started = performance.now();
  await expect('/api/auth/opaque/login/finish', { loginId: start.loginId, finishLoginRequest: finished.finishLoginRequest }, 200);
  spent += performance.now() - started;
  return spent;
}

async function passwordSignIn(username: string): Promise<void> {
  await expect('/api/auth/password/login', { username, password: PASSWORD }, 200);
}

/** Closed loop: `concurrency` clients signing in back to back for SECONDS; sign-ins per second. */
async function saturate(concurrency: number, signIn: () => Promise<unknown>): Promise<number> {
  const end = performance.now() + SECONDS * 1000;
  let done = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) {
        await signIn();
        done += 1;
      }
    }),
  );
  return done / SECONDS;
}

/** Open loop: arrivals at `rate` per second for SECONDS, each timed. */
async function paced(rate: number, signIn: () => Promise<number>): Promise<number[]> {
  const interval = 1000 / rate;
  const count = Math.floor(rate * SECONDS);
  const startAt = performance.now();
  const pending: Array<Promise<number>> = [];
  for (let i = 0; i < count; i += 1) {
    const due = startAt + i * interval;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    pending.push(signIn());
  }
  return (await Promise.all(pending)).sort((a, b) => a - b);
}

/** Settings reach the gateway through LISTEN/NOTIFY: waits until a probe signup answers `status`. */
async function signupAnswers(status: number): Promise<void> {
  for (let tries = 0; ; tries += 1) {
    const answer = await post('/api/auth/password/register', { username: name('probe', tries), password: PASSWORD });
    if (answer.status === status) return;
    if (tries > 100) throw new Error(`signup never answered ${status}: ${JSON.stringify(answer.body)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** CPU time (user + system) a process has used, from /proc. */
async function cpuMs(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  // Fields after the parenthesised command name; utime and stime are the 12th and 13th of them.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
}
/** USER_HZ: 100 on every Linux architecture Node supports. */
const CLOCK_TICKS_PER_SECOND = 100;

const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)] as T;
const name = (prefix: string, i: number): string => `${prefix}_${i}_${randomBytes(3).toString('hex')}`;

async function main(): Promise<void> {
  await opaque.ready;
  const logger = createLogger({ level: 'warn', destination: 'stderr' });
  const databaseUrl = await freshDatabase('bench_auth');
  const secrets = await generatedSecrets();
  const migrated = await runSvc(['migrate'], { SVC_DATABASE_URL: databaseUrl });
  if (migrated.code !== 0) throw new Error(migrated.stderr);

  const replicas: Replica[] = [];
  const pool = createPool({ url: databaseUrl, max: 2, logger });
  const settings = await RuntimeSettings.start({ pool, connectionString: databaseUrl, logger, replicaId: 'bench' });
  const temporal = await Connection.connect({ address: testStack().temporalAddress });
  try {
    const gateway = await startReplica(['--role', 'gateway'], await replicaEnv(databaseUrl, secrets, {
      SVC_SERVER_PORT: String(await freePort()),
      SVC_SERVER_TRUST_PROXY: 'true',
      SVC_SERVER_TRUSTED_PROXIES: '127.0.0.1/32',
      ...(GATEWAY_NODE_OPTIONS ? { NODE_OPTIONS: GATEWAY_NODE_OPTIONS } : {}),
    }));
    replicas.push(gateway);
    base = gateway.httpUrl;
    const author = { actor: 'bench', source: 'bench' };
    await settings.update('user', { enablePasswordSignup: true, passwordSignupNeedReview: false }, author);

    await signupAnswers(201);
    const opaqueUsers = Array.from({ length: ACCOUNTS }, (_, i) => name('opaque', i));
    for (const username of opaqueUsers) await opaqueSignup(username);
    const argonUsers = Array.from({ length: 20 }, (_, i) => name('argon', i));
    for (const username of argonUsers) await expect('/api/auth/password/register', { username, password: PASSWORD }, 201);

    for (let i = 0; i < 50; i += 1) await opaqueSignIn(pick(opaqueUsers)); // warm-up
    const gatewayPid = gateway.process.child.pid!;
    const cpuBefore = await cpuMs(gatewayPid);
    let opaqueCount = 0;
    const opaqueRate = await saturate(CONCURRENCY, () => opaqueSignIn(pick(opaqueUsers)).then(() => (opaqueCount += 1)));
    const gatewayCpuPerSignIn = ((await cpuMs(gatewayPid)) - cpuBefore) / opaqueCount;
    const half = Math.max(1, Math.floor(opaqueRate / 2));
    const latencies = await paced(half, () => opaqueSignIn(pick(opaqueUsers)));
    const argonRate = await saturate(ARGON2_CONCURRENCY, () => passwordSignIn(pick(argonUsers)));

    // Approval: signup under review, the approve signal as the Temporal UI sends it, then sign-in attempts back to back.
    await settings.update('user', { passwordSignupNeedReview: true }, author);
    const client = new Client({ connection: temporal });
    const approvals: number[] = [];
    // The worker starts only now: it takes no part in a sign-in, and would share the cores with it.
    replicas.push(await startReplica(['--role', 'worker'], await replicaEnv(databaseUrl, secrets)));
    await signupAnswers(202);
    for (let i = 0; i < REVIEWS; i += 1) {
      const username = name('review', i);
      const filed = await expect('/api/auth/password/register', { username, password: PASSWORD }, 202);
      const signalled = performance.now();
      await client.workflow.getHandle(String(filed.reviewId)).signal('approve', { reviewer: 'bench' });
      for (;;) {
        const answer = await post('/api/auth/password/login', { username, password: PASSWORD });
        if (answer.status === 200) break;
        if (answer.body.code !== 'review_pending') throw new Error(`unexpected answer while approving: ${JSON.stringify(answer.body)}`);
        if (performance.now() - signalled > 30_000) throw new Error('not approved within 30 s');
      }
      approvals.push(performance.now() - signalled);
    }
    approvals.sort((a, b) => a - b);

    const ms = (value: number): string => `${value.toFixed(1)} ms`;
    console.log(`auth benchmark: one gateway process, ${SECONDS} s per phase, ${ACCOUNTS} OPAQUE accounts`);
    console.log(`OPAQUE sign-ins (login/start + login/finish, session issued): ${opaqueRate.toFixed(0)} /s at concurrency ${CONCURRENCY} (target >= 300 /s)`);
    console.log(
      `gateway CPU per OPAQUE sign-in: ${gatewayCpuPerSignIn.toFixed(2)} ms, so one core of the gateway process sustains ~${(1000 / gatewayCpuPerSignIn).toFixed(0)} /s (this machine: ${availableParallelism()} cores shared by the gateway, the bench client, PostgreSQL and Redis)`,
    );
    console.log(
      `OPAQUE sign-in latency at ${half}/s (half that rate), ${latencies.length} sign-ins: p50 ${ms(percentile(latencies, 50))}  p99 ${ms(percentile(latencies, 99))} (target p99 < 50 ms)`,
    );
    console.log(
      `Argon2id sign-ins (direct password): ${argonRate.toFixed(1)} /s at concurrency ${ARGON2_CONCURRENCY}; hash m=${ARGON2_PARAMS.memoryCost} KiB t=${ARGON2_PARAMS.timeCost} p=${ARGON2_PARAMS.parallelism}`,
    );
    console.log(`approve signal -> first successful sign-in, ${REVIEWS} reviews: p50 ${ms(percentile(approvals, 50))}  p99 ${ms(percentile(approvals, 99))} (target p99 < 1000 ms)`);
  } finally {
    for (const replica of replicas) await replica.process.stop();
    await temporal.close();
    await settings.stop();
    await pool.end();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
