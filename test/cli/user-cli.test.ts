import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import test from 'ava';
import type { UserRecord } from '../../gateways/management/protocol.js';
import { waitFor } from '../fixtures/deadline.js';
import { generatedSecrets, replicaEnv, startReplica, type Replica } from '../harness/replica.js';
import { freshDatabase } from '../harness/stack.js';
import { childEnv, runSvc, svcMain, type RunResult } from '../harness/svc-process.js';

// `svc user ...` and the admin API against a real `svc serve` (all roles, a task queue of its
// own): operators bootstrap a root, ban and unban, change roles and reset passwords; admins
// decide signups under review through the HTTP API.
let replica: Replica;

test.before(async () => {
  const databaseUrl = await freshDatabase('user_cli');
  const migrated = await runSvc(['migrate'], { SVC_DATABASE_URL: databaseUrl });
  if (migrated.code !== 0) throw new Error(`migrate failed: ${migrated.stderr}`);
  const env = await replicaEnv(databaseUrl, await generatedSecrets(), {
    SVC_NATS_SUBJECT_PREFIX: `t${randomBytes(4).toString('hex')}`,
    SVC_TEMPORAL_TASK_QUEUE: `test-user-cli-${randomBytes(4).toString('hex')}`,
  });
  replica = await startReplica(['--replica-id', 'user-cli'], env);
  const enabled = await runSvc(['settings', 'update', 'user', '--set', 'enablePasswordSignup=true'], replica.cliEnv);
  if (enabled.code !== 0) throw new Error(`settings update failed: ${enabled.stderr}`);
});

test.after.always(async () => {
  await replica?.process.stop();
});

const svc = (...args: string[]): Promise<RunResult> => runSvc(args, replica.cliEnv);

/** The CLI with `input` on its stdin (a pipe, as in scripts). */
function svcWithInput(input: string, ...args: string[]): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [svcMain, ...args], { env: childEnv(replica.cliEnv), stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}

async function api(method: string, path: string, body?: unknown, token?: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${replica.httpUrl}${path}`, {
    method,
    headers: { 'x-svc-client': 'native', ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : {}) as Record<string, unknown> };
}
const login = (username: string, password: string) => api('POST', '/api/auth/password/login', { username, password });

test.serial('create-root from stdin makes the first administrator, once', async (t) => {
  const created = await svcWithInput('root passphrase one\n', 'user', 'create-root', '--username', 'rootie', '--password-stdin');
  t.is(created.code, 0, created.stderr);
  t.regex(created.stdout, /^created root account rootie \(/);
  const signedIn = await login('rootie', 'root passphrase one');
  t.is(signedIn.status, 200);
  t.like(signedIn.body.user, { username: 'rootie', role: 'root' });

  const again = await svcWithInput('another passphrase\n', 'user', 'create-root', '--username', 'rootie2');
  t.is(again.code, 1);
  t.regex(again.stderr, /^error\[conflict\]: a root account exists \("rootie"\); pass --allow-additional/);
  const weak = await svcWithInput('short\n', 'user', 'create-root', '--username', 'rootie3', '--allow-additional');
  t.is(weak.code, 1);
  t.regex(weak.stderr, /^error\[invalid_argument\]: .*at least 8 characters/);
});

test.serial('list, show, ban, unban, set-role and reset-password', async (t) => {
  const registered = await api('POST', '/api/auth/password/register', { username: 'bob', password: 'bob passphrase one' });
  t.is(registered.status, 201);
  const bobToken = String(registered.body.accessToken);

  const listed = await svc('user', 'list', '--json');
  t.is(listed.code, 0, listed.stderr);
  const { users } = JSON.parse(listed.stdout) as { users: UserRecord[] };
  t.deepEqual(users.map((user) => [user.username, user.role]), [['bob', 'user'], ['rootie', 'root']]);
  const shown = JSON.parse((await svc('user', 'show', 'Bob', '--json')).stdout) as UserRecord;
  t.like(shown, { username: 'bob', state: 'active', credentials: { password: 'argon2', passkeys: 0, totp: false }, activeSessions: 1 });

  const banned = await svc('user', 'ban', 'bob');
  t.is(banned.code, 0, banned.stderr);
  t.is(banned.stdout, 'banned bob; 1 session(s) ended\n');
  // At once: the access token has not expired, yet the next request is refused.
  t.is((await api('GET', '/api/me', undefined, bobToken)).status, 401);
  const refused = await login('bob', 'bob passphrase one');
  t.is(refused.status, 403);
  t.is(refused.body.code, 'account_banned');

  t.is((await svc('user', 'unban', 'bob')).stdout, 'bob is active\n');
  t.is((await login('bob', 'bob passphrase one')).status, 200);

  t.is((await svc('user', 'set-role', 'bob', 'admin')).stdout, 'bob is admin\n');
  const lastRoot = await svc('user', 'set-role', 'rootie', 'user');
  t.is(lastRoot.code, 1);
  t.regex(lastRoot.stderr, /last root account/);
  const badRole = await svc('user', 'set-role', 'bob', 'owner');
  t.regex(badRole.stderr, /^error\[invalid_argument\]: role: must be one of root, admin, user/);

  const reset = await svcWithInput('bob passphrase two\n', 'user', 'reset-password', 'bob');
  t.is(reset.code, 0, reset.stderr);
  t.regex(reset.stdout, /^password of bob set; 1 session\(s\) ended/);
  t.is((await login('bob', 'bob passphrase one')).status, 401);
  t.is((await login('bob', 'bob passphrase two')).status, 200);

  const missing = await svc('user', 'show', 'nobody');
  t.is(missing.code, 1);
  t.regex(missing.stderr, /^error\[not_found\]: no user "nobody"/);
});

test.serial('the admin API: admins only; an admin approves a signup under review and the user signs in', async (t) => {
  const admin = String((await login('bob', 'bob passphrase two')).body.accessToken);
  const plain = await api('POST', '/api/auth/password/register', { username: 'dora', password: 'dora passphrase one' });
  const doraToken = String(plain.body.accessToken);
  const forbidden = await api('GET', '/api/admin/users', undefined, doraToken);
  t.is(forbidden.status, 403);
  t.is(forbidden.body.code, 'forbidden');

  const page = await api('GET', '/api/admin/users?limit=2', undefined, admin);
  t.is(page.status, 200);
  t.deepEqual((page.body.users as UserRecord[]).map((user) => user.username), ['bob', 'dora']);
  t.is(page.body.next, 'dora');
  const rootId = (JSON.parse((await svc('user', 'show', 'rootie', '--json')).stdout) as UserRecord).id;
  // An admin cannot ban another admin or root, nor change roles.
  t.is((await api('POST', `/api/admin/users/${rootId}/ban`, undefined, admin)).status, 403);
  t.is((await api('PUT', `/api/admin/users/${rootId}/role`, { role: 'user' }, admin)).status, 403);

  t.is((await svc('settings', 'update', 'user', '--set', 'passwordSignupNeedReview=true')).code, 0);
  const pending = await api('POST', '/api/auth/password/register', { username: 'carl', password: 'carl passphrase one' });
  t.is(pending.status, 202);
  const reviewId = String(pending.body.reviewId);
  const approved = await api('POST', `/api/admin/reviews/${encodeURIComponent(reviewId)}/approve`, { reason: 'known member' }, admin);
  t.is(approved.status, 200, JSON.stringify(approved.body));
  t.like(approved.body, { reviewId, state: 'approved', decision: { reviewer: 'user:bob', reason: 'known member' } });
  // The decision is recorded; the account follows from the approval's activity a moment later.
  await waitFor('carl signed in after approval', async () => ((await login('carl', 'carl passphrase one')).status === 200 ? true : undefined), 15_000);
  const again = await api('POST', `/api/admin/reviews/${encodeURIComponent(reviewId)}/reject`, { reason: 'changed my mind' }, admin);
  t.is(again.status, 409);
});
