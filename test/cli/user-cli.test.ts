import { spawn } from 'node:child_process';
import * as opaque from '@serenity-kit/opaque';
import test from 'ava';
import type { UserChangeView, UserDetailView, UserListView, UserView } from '../../contracts/management.js';
import { generatedSecrets, replicaEnv, startReplica, type Replica } from '../harness/replica.js';
import { freshDatabase } from '../harness/stack.js';
import { childEnv, runSvc, svcMain, type RunResult } from '../harness/svc-process.js';

// `svc user ...` against a real `svc serve` (gateway role): every command is a separate `svc`
// process talking to the management socket, and what it changes is checked through the
// public HTTP API the way a client would notice it.
let replica: Replica;
const PASSWORD = 'correct horse battery';
const ROOT = 'rooty';

test.before(async () => {
  const databaseUrl = await freshDatabase('user_cli');
  const migrated = await runSvc(['migrate'], { SVC_DATABASE_URL: databaseUrl });
  if (migrated.code !== 0) throw new Error(`migrate failed: ${migrated.stderr}`);
  replica = await startReplica(['--role', 'gateway', '--replica-id', 'user-cli'], await replicaEnv(databaseUrl, await generatedSecrets()));
  const enabled = await runSvc(['settings', 'update', 'user', '--set', 'enablePasswordSignup=true'], replica.cliEnv);
  if (enabled.code !== 0) throw new Error(`settings update failed: ${enabled.stderr}`);
});

test.after.always(async () => {
  await replica?.process.stop();
});

const svc = (...args: string[]): Promise<RunResult> => runSvc(args, replica.cliEnv);

/** Runs `svc` with `input` on its stdin (a pipe, not a terminal), as a script would. */
function svcWithInput(input: string, ...args: string[]): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [svcMain, ...args], { env: childEnv(replica.cliEnv), stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`svc ${args.join(' ')} did not finish within 30 s\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, 30_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(input);
  });
}

async function http(method: string, path: string, body?: unknown, token?: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${replica.httpUrl}${path}`, {
    method,
    headers: { 'x-svc-client': 'native', ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : {}) as Record<string, unknown> };
}

const login = (username: string, password = PASSWORD) => http('POST', '/api/auth/password/login', { username, password });

/** An OPAQUE sign-in, as the web page's Sign in button makes it; the status of login/finish (0: the client found the password wrong). */
async function opaqueLogin(username: string, password = PASSWORD): Promise<{ status: number; body: Record<string, unknown> }> {
  await opaque.ready;
  const { clientLoginState, startLoginRequest } = opaque.client.startLogin({ password });
  const start = await http('POST', '/api/auth/opaque/login/start', { username, startLoginRequest });
  if (start.status !== 200) return start;
  const finished = opaque.client.finishLogin({ clientLoginState, loginResponse: String(start.body.loginResponse), password });
  if (!finished) return { status: 0, body: start.body };
  return http('POST', '/api/auth/opaque/login/finish', { loginId: start.body.loginId, finishLoginRequest: finished.finishLoginRequest });
}

async function signUp(username: string): Promise<string> {
  const answer = await http('POST', '/api/auth/password/register', { username, password: PASSWORD });
  if (answer.status !== 201) throw new Error(`signup: ${answer.status} ${JSON.stringify(answer.body)}`);
  return String(answer.body.accessToken);
}

function json<T>(result: RunResult): T {
  if (result.code !== 0) throw new Error(`exit ${result.code}: ${result.stderr}`);
  return JSON.parse(result.stdout) as T;
}

test.serial('create-root reads the password from stdin and refuses a second root unless asked', async (t) => {
  const empty = await svcWithInput('', 'user', 'create-root', '--username', ROOT, '--password-stdin');
  t.is(empty.code, 1);
  t.regex(empty.stderr, /error\[invalid_argument\]: password: stdin was empty/);
  const badName = await svcWithInput(`${PASSWORD}\n`, 'user', 'create-root', '--username', 'a b');
  t.is(badName.code, 1);
  t.regex(badName.stderr, /error\[invalid_argument\]: username: must be 3 to 32/);

  const created = await svcWithInput(`${PASSWORD}\n`, 'user', 'create-root', '--username', ROOT, '--password-stdin');
  t.is(created.code, 0, created.stderr);
  t.regex(created.stdout, /^created root rooty \([0-9a-f-]{36}\)$/m);
  // The CLI made an OPAQUE record: the web page's Sign in button (OPAQUE) works, and so does the direct transport.
  t.like(json<UserDetailView>(await svc('user', 'show', ROOT, '--json')), { credentials: { password: 'opaque' } });
  const overOpaque = await opaqueLogin(ROOT);
  t.is(overOpaque.status, 200);
  t.is((overOpaque.body.user as { role: string }).role, 'root');
  t.false('useDirectPassword' in (await http('POST', '/api/auth/opaque/login/start', { username: ROOT, startLoginRequest: opaque.client.startLogin({ password: PASSWORD }).startLoginRequest })).body);
  const signedIn = await login(ROOT);
  t.is(signedIn.status, 200);
  t.is((signedIn.body.user as { role: string }).role, 'root');

  // Stdin that is not a terminal is read without --password-stdin.
  const second = await svcWithInput(`${PASSWORD}\n`, 'user', 'create-root', '--username', 'rooty2');
  t.is(second.code, 1);
  t.regex(second.stderr, /error\[conflict\]: a root already exists \(rooty\)/);
  const additional = json<UserView>(await svcWithInput(`${PASSWORD}\r\n`, 'user', 'create-root', '--username', 'rooty2', '--allow-additional', '--json'));
  t.like(additional, { username: 'rooty2', role: 'root', state: 'active' });
  t.is((await login('rooty2')).status, 200);
});

test.serial('list and show, as tables and as JSON', async (t) => {
  await signUp('lister_a');
  const page = json<UserListView>(await svc('user', 'list', '--role', 'root', '--json'));
  t.deepEqual(page.users.map((user) => user.username), ['rooty', 'rooty2']);
  const paged = json<UserListView>(await svc('user', 'list', '--limit', '1', '--json'));
  t.is(paged.users.length, 1);
  t.truthy(paged.nextCursor);
  const next = json<UserListView>(await svc('user', 'list', '--limit', '1', '--cursor', paged.nextCursor!, '--json'));
  t.notDeepEqual(next.users, paged.users);

  const table = await svc('user', 'list', '--search', 'LISTER');
  t.is(table.code, 0, table.stderr);
  t.regex(table.stdout, /lister_a\s*│\s*[0-9a-f-]{36}\s*│\s*user\s*│\s*active/);
  t.regex((await svc('user', 'list', '--search', 'zzz')).stdout, /^no users match$/m);

  const details = json<UserDetailView>(await svc('user', 'show', 'Lister_A', '--json'));
  t.like(details, { user: { username: 'lister_a', role: 'user' }, credentials: { password: 'argon2', passkeys: 0, oauth2: [] }, twoFactor: { enabled: false }, liveSessions: 1 });
  const shown = await svc('user', 'show', details.user.id);
  t.is(shown.code, 0, shown.stderr);
  t.regex(shown.stdout, /^username:\s+lister_a$/m);
  t.regex(shown.stdout, /^two-factor:\s+off$/m);
  t.regex(shown.stdout, /^sessions:\s+1$/m);

  const badFilter = await svc('user', 'list', '--state', 'sleeping');
  t.is(badFilter.code, 1);
  t.regex(badFilter.stderr, /error\[invalid_argument\]: state: must be active or banned/);
});

test.serial('ban signs the user out at once; unban lets them back in', async (t) => {
  const token = await signUp('banme');
  t.is((await http('GET', '/api/me', undefined, token)).status, 200);

  const banned = json<UserChangeView>(await svc('user', 'ban', 'banme', '--reason', 'spam', '--json'));
  t.like(banned, { changed: true, revokedSessions: 1, user: { username: 'banme', state: 'banned' } });
  t.is((await http('GET', '/api/me', undefined, token)).status, 401);
  t.is((await login('banme')).body.code, 'account_banned');
  t.regex((await svc('user', 'ban', 'banme')).stdout, /^banme was already banned$/m);
  t.deepEqual(json<UserListView>(await svc('user', 'list', '--state', 'banned', '--json')).users.map((user) => user.username), ['banme']);

  const unbanned = await svc('user', 'unban', 'banme');
  t.is(unbanned.code, 0, unbanned.stderr);
  t.regex(unbanned.stdout, /^unbanned banme$/m);
  t.is((await login('banme')).status, 200);
});

test.serial('set-role checks the role and keeps an active root', async (t) => {
  await signUp('promoted');
  const changed = json<UserChangeView>(await svc('user', 'set-role', 'promoted', 'admin', '--json'));
  t.like(changed, { changed: true, user: { role: 'admin' } });
  const bad = await svc('user', 'set-role', 'promoted', 'emperor');
  t.is(bad.code, 1);
  t.regex(bad.stderr, /error\[invalid_argument\]: role: must be one of root, admin, user/);

  t.is((await svc('user', 'set-role', 'rooty2', 'user')).code, 0);
  const last = await svc('user', 'set-role', 'rooty', 'admin');
  t.is(last.code, 1);
  t.regex(last.stderr, /error\[conflict\]: rooty is the last active root/);
  const banLast = await svc('user', 'ban', 'rooty');
  t.is(banLast.code, 1);
  t.regex(banLast.stderr, /error\[conflict\]: rooty is the last active root/);
});

test.serial('reset-password from stdin: the new password works, old sessions end', async (t) => {
  const token = await signUp('forgetful');
  const reset = await svcWithInput('a new long passphrase\n', 'user', 'reset-password', 'forgetful', '--password-stdin');
  t.is(reset.code, 0, reset.stderr);
  t.regex(reset.stdout, /^password of forgetful reset; 1 session\(s\) revoked$/m);
  t.is((await http('GET', '/api/me', undefined, token)).status, 401);
  t.is((await login('forgetful')).status, 401);
  t.is((await opaqueLogin('forgetful', 'a new long passphrase')).status, 200);
  t.is((await login('forgetful', 'a new long passphrase')).status, 200);

  const short = await svcWithInput('short\n', 'user', 'reset-password', 'forgetful');
  t.is(short.code, 1);
  t.regex(short.stderr, /error\[invalid_argument\]: password: must be at least 8 characters/);
  const twoLines = await svcWithInput('one password\nanother\n', 'user', 'reset-password', 'forgetful');
  t.is(twoLines.code, 1);
  t.regex(twoLines.stderr, /password: stdin must hold the password alone on one line/);
});

test('an unknown user is a not_found error naming it, with exit code 1', async (t) => {
  for (const args of [
    ['user', 'show', 'nobody_here'],
    ['user', 'ban', 'nobody_here'],
    ['user', 'unban', 'nobody_here'],
    ['user', 'set-role', 'nobody_here', 'admin'],
  ]) {
    const result = await svc(...args);
    t.is(result.code, 1, args.join(' '));
    t.regex(result.stderr, /^error\[not_found\]: no user "nobody_here"/m, args.join(' '));
    t.is(result.stdout, '');
  }
  const reset = await svcWithInput(`${PASSWORD}\n`, 'user', 'reset-password', 'nobody_here');
  t.is(reset.code, 1);
  t.regex(reset.stderr, /error\[not_found\]: no user "nobody_here"/);
});
