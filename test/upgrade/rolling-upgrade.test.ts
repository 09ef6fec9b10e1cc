/**
 * A rolling upgrade with two builds live on one stack (one database, one NATS prefix): the
 * previous release (test/upgrade/previous-release, built from git by previous-release.ts) and
 * this checkout. Members chat and seek on WebSockets throughout while the cluster rolls:
 *
 *   1. previous host + previous gateway serve;
 *   2. a current host joins and the previous host drains (SIGTERM): rooms move to the current
 *      host, and the previous gateway now sends to a current host;
 *   3. a current gateway joins and the previous gateway drains: its sockets (closed 1012)
 *      reconnect to the current gateway and resume;
 *   4. a previous host joins again and the current host drains: a current gateway sends to a
 *      previous host (a rollback of the hosts, or hosts rolled last).
 *
 * Users must notice nothing: every command answered ok (retries of the same command id after a
 * lost socket are what a client does), no seq backwards, every acknowledged chat message in
 * PostgreSQL exactly once. Rules: docs/2026-11-26-envelope-versions.md.
 */
import { randomBytes } from 'node:crypto';
import test from 'ava';
import { AppError } from '../../errors/app-error.js';
import { createLogger } from '../../observability/logger.js';
import { migrate, migrationStatus } from '../../postgres/migrate.js';
import { createPool } from '../../postgres/pool.js';
import { uniqueIp } from '../fixtures/client-address.js';
import { waitFor } from '../fixtures/deadline.js';
import { generatedSecrets, replicaEnv } from '../harness/replica.js';
import { RealtimeClient } from '../harness/ws-client.js';
import { freshDatabase } from '../harness/stack.js';
import { currentBuild, drain, runBuild, startBuild, type Build, type RunningBuild } from './builds.js';
import { Chatter } from './chatter.js';
import { pinnedCommit, previousRelease } from './previous-release.js';

const logger = createLogger({ level: 'fatal', destination: 'stderr' });
const PASSWORD = 'correct horse battery staple';
const ROOMS = 2;
const MEMBERS_PER_ROOM = 3;

const running = new Set<RunningBuild>();
const chatters: Chatter[] = [];
test.after.always(async () => {
  await Promise.all(chatters.map((chatter) => chatter.stop().catch(() => undefined)));
  await Promise.all([...running].map((replica) => replica.process.terminate('SIGKILL')));
});

test('clients notice nothing while hosts and gateways roll from the previous release to this build and back', async (t) => {
  const commit = await pinnedCommit();
  const release = await previousRelease(commit, (line) => t.log(line));
  t.log(release.buildMs > 0 ? `previous release ${release.sha.slice(0, 12)} built in ${release.buildMs} ms` : `previous release ${release.sha.slice(0, 12)} from the cache`);
  const previous: Build = { name: 'previous', main: release.main };

  const databaseUrl = await freshDatabase('rolling_upgrade');
  const secrets = await generatedSecrets();
  const shared = {
    SVC_NATS_SUBJECT_PREFIX: `up${randomBytes(4).toString('hex')}`,
    SVC_SERVER_TRUST_PROXY: 'true',
    SVC_SERVER_TRUSTED_PROXIES: '127.0.0.1/32',
    // The members chat as fast as answers come back: no rate limit may refuse them.
    SVC_ROOMS_CHAT_RATE: '10000',
    SVC_ROOMS_CHAT_BURST: '10000',
    SVC_ROOMS_COMMAND_RATE: '10000',
  };
  const start = async (build: Build, label: string, role: 'actors' | 'gateway'): Promise<RunningBuild> => {
    const replica = await startBuild(build, label, ['--role', role, '--replica-id', label], await replicaEnv(databaseUrl, secrets, shared));
    running.add(replica);
    return replica;
  };
  const stop = async (replica: RunningBuild): Promise<void> => {
    const code = await drain(replica);
    running.delete(replica);
    t.is(code, 0, `${replica.label} (${replica.build.name}) drained and exited cleanly\n${replica.process.output()}`);
  };

  // The schema as the previous release left it: it must accept it, and it is what a cluster
  // runs before the upgrade. The current build's migrations are applied once both run (below).
  const migrated = await runBuild(previous, ['migrate'], await replicaEnv(databaseUrl, secrets, shared));
  t.is(migrated.code, 0, migrated.stderr);

  let hostA = await start(previous, 'host-a-previous', 'actors');
  const gatewayA = await start(previous, 'gateway-a-previous', 'gateway');
  let liveGateways = [gatewayA.httpUrl];

  // Migrations of this build, if it has any, go in while the previous build serves: they must be
  // additive (expand only), since previous replicas keep running on the migrated schema.
  const pool = createPool({ url: databaseUrl, max: 2 });
  try {
    const pending = (await migrationStatus(pool)).pending;
    if (pending.length > 0) t.log(`this build adds migrations ${pending.join(', ')}: applied with the previous release serving`);
    await migrate(pool, logger);
  } catch (err) {
    if (err instanceof AppError && err.code === 'conflict') t.fail(`the previous release has migrations this build does not know: ${err.message}`);
    throw err;
  } finally {
    await pool.end();
  }

  const enabled = await runBuild(previous, ['settings', 'update', 'user', '--set', 'enablePasswordSignup=true'], { SVC_DATA_DIR: gatewayA.env.SVC_DATA_DIR ?? '' });
  t.is(enabled.code, 0, enabled.stderr);

  const api = async <T>(url: string, method: string, path: string, body: unknown, token?: string): Promise<{ status: number; body: T }> => {
    const response = await fetch(`${url}${path}`, {
      method,
      headers: { 'content-type': 'application/json', 'x-forwarded-for': uniqueIp(), 'x-svc-client': 'native', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as T };
  };
  const signUp = async (name: string): Promise<string> => {
    const answer = await waitFor(`signup of ${name} (password signup enabled everywhere)`, async () => {
      const reply = await api<{ accessToken: string }>(gatewayA.httpUrl, 'POST', '/api/auth/password/register', { username: `${name}_${randomBytes(3).toString('hex')}`, password: PASSWORD });
      return reply.status === 201 ? reply : undefined;
    });
    return answer.body.accessToken;
  };

  const rooms: string[] = [];
  for (let r = 0; r < ROOMS; r++) {
    const ownerToken = await signUp(`owner${r}`);
    const created = await api<{ room: { id: string } }>(gatewayA.httpUrl, 'POST', '/api/rooms', { name: `Upgrade night ${r}` }, ownerToken);
    t.is(created.status, 201, JSON.stringify(created.body));
    const roomId = created.body.room.id;
    rooms.push(roomId);
    // A current media, so that seeks are real playback changes.
    const owner = await RealtimeClient.connect({ url: gatewayA.httpUrl, roomId, token: ownerToken, headers: { 'x-forwarded-for': uniqueIp() } });
    const pushed = await owner.command({ kind: 'playlist.push', title: 'Film', url: 'https://media.example.com/film.mp4' });
    await owner.command({ kind: 'playlist.setCurrent', mediaId: pushed.result.item.id });
    await owner.close();
    for (let m = 0; m < MEMBERS_PER_ROOM; m++) {
      const token = m === 0 ? ownerToken : await signUp(`member${r}${m}`);
      if (m > 0) {
        const joined = await api(gatewayA.httpUrl, 'POST', `/api/rooms/${roomId}/join`, {}, token);
        t.true(joined.status < 300, JSON.stringify(joined.body));
      }
      chatters.push(new Chatter({ name: `r${r}m${m}`, token, roomId, gateways: () => liveGateways }));
    }
  }
  await Promise.all(chatters.map((chatter) => chatter.connect()));
  for (const chatter of chatters) chatter.start();

  /** Each member gets a few more commands answered: the cluster serves them in this shape. */
  const served = async (what: string): Promise<void> => {
    const before = chatters.map((chatter) => chatter.acked.length);
    await waitFor(`every member chatting ${what}`, () => (chatters.every((chatter, i) => chatter.acked.length >= before[i]! + 3) ? true : undefined), 60_000);
  };

  await served('with the previous host and gateway');
  const hostB = await start(currentBuild, 'host-b-current', 'actors');
  await stop(hostA);
  await served('through the previous gateway to the current host');

  const gatewayB = await start(currentBuild, 'gateway-b-current', 'gateway');
  liveGateways = [gatewayB.httpUrl];
  await stop(gatewayA);
  await waitFor('every socket moved off the drained gateway', () => (chatters.every((chatter) => chatter.servedBy.at(-1) === gatewayB.httpUrl) ? true : undefined), 60_000);
  await served('through the current gateway to the current host');

  hostA = await start(previous, 'host-c-previous', 'actors');
  await stop(hostB);
  await served('through the current gateway to the previous host');

  await Promise.all(chatters.map((chatter) => chatter.stop()));
  const total = chatters.reduce((sum, chatter) => sum + chatter.commands, 0);
  t.log(`${total} commands from ${chatters.length} members, ${chatters.reduce((sum, c) => sum + c.reconnects, 0)} reconnects`);
  t.deepEqual(chatters.flatMap((chatter) => chatter.failures), [], 'commands not answered ok');
  t.deepEqual(chatters.flatMap((chatter) => chatter.seqBackwards), [], 'seqs that went backwards');

  // Every acknowledged message is in PostgreSQL once.
  const check = createPool({ url: databaseUrl, max: 1 });
  try {
    const { rows } = await check.query<{ text: string; copies: string }>('SELECT text, count(*) AS copies FROM chat_messages WHERE room_id = ANY($1) GROUP BY text', [rooms]);
    const stored = new Map(rows.map((row) => [row.text, Number(row.copies)]));
    const acked = chatters.flatMap((chatter) => chatter.acked);
    t.true(acked.length > 0);
    t.deepEqual(acked.filter((text) => stored.get(text) !== 1), [], 'acknowledged messages missing from PostgreSQL or stored twice');
  } finally {
    await check.end();
  }
  await stop(hostA);
  await stop(gatewayB);
});
