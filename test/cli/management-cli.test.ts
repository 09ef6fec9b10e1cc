import test from 'ava';
import { parse as parseYaml } from 'yaml';
import { eventually } from '../fixtures/deadline.js';
import { freePort, freshDatabase } from '../harness/stack.js';
import { runSvc } from '../harness/svc-process.js';
import { generatedSecrets, replicaEnv, startReplica, type Replica } from '../harness/replica.js';

// Two real replicas on one database: A serves management on its default Unix socket,
// B on TCP with a token. Every CLI call below is a separate `svc` process.
let unixReplica: Replica;
let tcpReplica: Replica;

test.before(async () => {
  const databaseUrl = await freshDatabase('mgmt_cli');
  const secrets = await generatedSecrets();
  const migrated = await runSvc(['migrate'], { SVC_DATABASE_URL: databaseUrl });
  if (migrated.code !== 0) throw new Error(`migrate failed: ${migrated.stderr}`);

  unixReplica = await startReplica(['--role', 'gateway', '--replica-id', 'replica-a'], await replicaEnv(databaseUrl, secrets, { SVC_METRICS_LISTEN: `127.0.0.1:${await freePort()}` }));
  const tcpEnv = await replicaEnv(databaseUrl, secrets, {
    SVC_MANAGEMENT_ENDPOINT: `tcp://127.0.0.1:${await freePort()}`,
  });
  tcpReplica = await startReplica(['--role', 'gateway', '--role', 'worker', '--replica-id', 'replica-b'], tcpEnv);
});

test.after.always(async () => {
  await Promise.all([unixReplica?.process.stop(), tcpReplica?.process.stop()]);
});

test.serial('settings get reads the default of a key never written', async (t) => {
  const result = await runSvc(['settings', 'get', 'server.maxRoomsPerUser'], unixReplica.cliEnv);
  t.is(result.code, 0, result.stderr);
  t.is(result.stdout.trim(), '10');
  const ice = await runSvc(['settings', 'get', 'webrtc.externalIceServers'], tcpReplica.cliEnv);
  t.is(ice.code, 0, ice.stderr);
  const servers = JSON.parse(ice.stdout) as Array<{ urls: string[] }>;
  t.is(servers.length, 2);
  for (const server of servers) t.regex(server.urls[0] ?? '', /^stun:[^:]+:19302$/);
});

test.serial('settings update writes several keys of a group and the other replica sees them', async (t) => {
  const result = await runSvc(
    ['settings', 'update', 'server', '--set', 'maxRoomsPerUser=20', '--set', 'maxMembersPerRoom=50'],
    unixReplica.cliEnv,
  );
  t.is(result.code, 0, result.stderr);
  t.regex(result.stdout, /server\.maxRoomsPerUser: 10 -> 20/);
  t.regex(result.stdout, /server\.maxMembersPerRoom: 100 -> 50/);

  await eventually(
    async () => (await runSvc(['settings', 'get', 'server.maxMembersPerRoom'], tcpReplica.cliEnv)).stdout.trim() === '50',
    10_000,
    'replica-b sees server.maxMembersPerRoom=50',
  );
  t.pass();
});

test.serial('a rejected value writes nothing and names the key and the rule', async (t) => {
  const result = await runSvc(
    ['settings', 'update', 'server', '--set', 'maxMembersPerRoom=70', '--set', 'maxRoomsPerUser=1001'],
    unixReplica.cliEnv,
  );
  t.is(result.code, 1);
  t.regex(result.stderr, /error\[invalid_argument\]: server\.maxRoomsPerUser: .*1\.\.=1000/);
  const after = await runSvc(['settings', 'get', 'server.maxMembersPerRoom'], unixReplica.cliEnv);
  t.is(after.stdout.trim(), '50');
});

test.serial('booleans, unknown names and the guest ceiling are checked', async (t) => {
  const yes = await runSvc(['settings', 'update', 'user', '--set', 'enableGuest=yes'], unixReplica.cliEnv);
  t.is(yes.code, 1);
  t.regex(yes.stderr, /user\.enableGuest/);

  const unknown = await runSvc(['settings', 'update', 'user', '--set', 'enableTelepathy=true'], unixReplica.cliEnv);
  t.is(unknown.code, 1);
  t.regex(unknown.stderr, /user\.enableTelepathy/);

  const ceiling = await runSvc(['settings', 'update', 'permissions', '--set', 'guestDefaultPermissions=["send_chat"]'], unixReplica.cliEnv);
  t.is(ceiling.code, 1);
  t.regex(ceiling.stderr, /permissions\.guestDefaultPermissions: .*send_chat/);

  const json = await runSvc(
    ['settings', 'update', 'permissions', '--set', 'guestDefaultPermissions=["view_member_list","use_webrtc"]'],
    tcpReplica.cliEnv,
  );
  t.is(json.code, 0, json.stderr);
  const stored = await runSvc(['settings', 'get', 'permissions.guestDefaultPermissions'], unixReplica.cliEnv);
  t.deepEqual(JSON.parse(stored.stdout), ['view_member_list', 'use_webrtc']);

  const off = await runSvc(['settings', 'update', 'user', '--set', 'enableGuest=false'], unixReplica.cliEnv);
  t.is(off.code, 0, off.stderr);
});

test.serial('history records who changed what from which value, newest first', async (t) => {
  await runSvc(['settings', 'update', 'server', '--set', 'maxRoomsPerUser=30'], tcpReplica.cliEnv);
  const result = await runSvc(['settings', 'history', 'server.maxRoomsPerUser', '--output', 'json'], unixReplica.cliEnv);
  t.is(result.code, 0, result.stderr);
  const history = JSON.parse(result.stdout) as Array<{ oldValue: unknown; oldIsDefault: boolean; newValue: unknown; changedBy: string; source: string }>;
  t.deepEqual(
    history.map((entry) => [entry.oldValue, entry.oldIsDefault, entry.newValue]),
    [
      [20, false, 30],
      [10, true, 20],
    ],
  );
  t.regex(history[0]?.changedBy ?? '', /^cli:/);
  t.is(history[0]?.source, 'management:tcp');
  t.is(history[1]?.source, 'management:unix');

  // Rollback is an update with the recorded old value.
  const rollback = await runSvc(['settings', 'update', 'server', '--set', `maxRoomsPerUser=${String(history[0]?.oldValue)}`], unixReplica.cliEnv);
  t.is(rollback.code, 0, rollback.stderr);
  t.is((await runSvc(['settings', 'get', 'server.maxRoomsPerUser'], unixReplica.cliEnv)).stdout.trim(), '20');
});

test.serial('settings update of oauth2.providers warns which instances no longer sign in their bound identities', async (t) => {
  const providers = (issuer: string) =>
    `providers=${JSON.stringify([{ instanceName: 'corp', oidc: { clientId: 'c', clientSecret: 'cli-secret', issuer, redirectUrl: 'https://svc.test/cb' } }])}`;
  const first = await runSvc(['settings', 'update', 'oauth2', '--set', providers('https://idp.example.com')], unixReplica.cliEnv);
  t.is(first.code, 0, first.stderr);
  t.notRegex(first.stdout, /warning/);
  const moved = await runSvc(['settings', 'update', 'oauth2', '--set', providers('https://other.example.com')], tcpReplica.cliEnv);
  t.is(moved.code, 0, moved.stderr);
  t.regex(moved.stdout, /^warning: OAuth2 instance "corp" now uses oidc issuer https:\/\/other\.example\.com instead of oidc issuer https:\/\/idp\.example\.com: identities bound through it before no longer sign in/m);
  t.false(moved.stdout.includes('cli-secret'));
  await runSvc(['settings', 'update', 'oauth2', '--set', 'providers=[]'], unixReplica.cliEnv);
});

test.serial('settings list shows every key in json, yaml and table form', async (t) => {
  const json = await runSvc(['settings', 'list', '--output', 'json'], unixReplica.cliEnv);
  t.is(json.code, 0, json.stderr);
  const settings = JSON.parse(json.stdout) as Array<{ key: string; isDefault: boolean }>;
  t.is(settings.length, 35);
  t.false(settings.find((s) => s.key === 'server.maxRoomsPerUser')?.isDefault);
  t.true(settings.find((s) => s.key === 'chat.messageRetentionDays')?.isDefault);

  const yaml = await runSvc(['settings', 'list', '--output', 'yaml'], tcpReplica.cliEnv);
  t.deepEqual((parseYaml(yaml.stdout) as Array<{ key: string }>).map((s) => s.key), settings.map((s) => s.key));

  const table = await runSvc(['settings', 'list'], unixReplica.cliEnv);
  t.regex(table.stdout, /room\.passwordPolicy\s*│\s*optional/);
});

/** The value column of a `settings list` table by key, its wrapped lines joined again. */
function tableValues(table: string): Map<string, string> {
  const values = new Map<string, string>();
  let key = '';
  for (const line of table.split('\n')) {
    const cells = line.split('│').slice(1, -1).map((cell) => cell.trim());
    if (cells.length !== 4 || cells[0] === 'key') continue;
    if (cells[0]) key = cells[0];
    values.set(key, (values.get(key) ?? '') + (cells[1] ?? ''));
  }
  return values;
}

test.serial('settings list shows long values whole: wrapped to the terminal width, or one line each with --wide', async (t) => {
  const json = await runSvc(['settings', 'list', '--output', 'json'], unixReplica.cliEnv);
  // Values without spaces: wrapping breaks them after commas or anywhere, and the lines join back exactly.
  const long = (JSON.parse(json.stdout) as Array<{ key: string; value: unknown }>)
    .map(({ key, value }) => ({ key, text: typeof value === 'string' ? value : JSON.stringify(value) }))
    .filter(({ text }) => text.length > 80 && !text.includes(' '));
  t.true(long.some(({ key }) => key === 'webrtc.externalIceServers'), 'the default ICE servers are a long value');

  const narrow = await runSvc(['settings', 'list'], { ...unixReplica.cliEnv, COLUMNS: '100' });
  t.is(narrow.code, 0, narrow.stderr);
  for (const line of narrow.stdout.trimEnd().split('\n')) t.true(line.length <= 100, `wider than 100 columns: ${line}`);
  const shown = tableValues(narrow.stdout);
  for (const { key, text } of long) t.is(shown.get(key), text, key);

  const wide = await runSvc(['settings', 'list', '--wide'], { ...unixReplica.cliEnv, COLUMNS: '100' });
  t.is(wide.code, 0, wide.stderr);
  for (const { key, text } of long) t.true(wide.stdout.split('\n').some((line) => line.includes(key) && line.includes(text)), `${key} on one line`);
  t.false(wide.stdout.includes('…'));
});

test('system stats reports the replica, its roles and its dependencies', async (t) => {
  const result = await runSvc(['system', 'stats', '--output', 'json'], tcpReplica.cliEnv);
  t.is(result.code, 0, result.stderr);
  const stats = JSON.parse(result.stdout) as {
    replicaId: string;
    roles: string[];
    version: string;
    uptimeSeconds: number;
    dependencies: Array<{ name: string; ok: boolean }>;
  };
  t.is(stats.replicaId, 'replica-b');
  t.deepEqual(stats.roles, ['gateway', 'worker']);
  t.regex(stats.version, /^\d+\.\d+\.\d+/);
  t.deepEqual(
    stats.dependencies.map((d) => [d.name, d.ok]).sort(),
    [['migrations', true], ['nats', true], ['postgres', true], ['redis', true], ['temporal', true]],
  );
  const table = await runSvc(['system', 'stats'], unixReplica.cliEnv);
  t.regex(table.stdout, /replica-a/);
});

test('a wrong TCP token is refused with a message naming management.token', async (t) => {
  const result = await runSvc(['system', 'stats'], { ...tcpReplica.cliEnv, SVC_MANAGEMENT_TOKEN: 'x'.repeat(40) });
  t.is(result.code, 1);
  t.regex(result.stderr, /error\[unauthenticated\].*management\.token/);
});

test('a wrong socket path names the path and the key that must agree', async (t) => {
  const result = await runSvc(['system', 'stats'], { SVC_MANAGEMENT_ENDPOINT: 'unix:///tmp/svc-no-such-dir/svc.sock' });
  t.is(result.code, 1);
  t.regex(result.stderr, /no management socket at unix:\/\/\/tmp\/svc-no-such-dir\/svc\.sock/);
  t.regex(result.stderr, /management\.endpoint/);
});

test('pointing the CLI at the public HTTP port says it is not a management endpoint', async (t) => {
  const port = new URL(tcpReplica.httpUrl).port;
  const result = await runSvc(['system', 'stats'], { SVC_MANAGEMENT_ENDPOINT: `tcp://127.0.0.1:${port}`, SVC_MANAGEMENT_TOKEN: 'y'.repeat(40) });
  t.is(result.code, 1);
  t.regex(result.stderr, /not an svc management endpoint/);
});

test('the public HTTP port of a replica is ready, saying no more; metrics and the detail are on its metrics listener', async (t) => {
  const response = await fetch(`${unixReplica.httpUrl}/health/ready`);
  t.is(response.status, 200);
  t.deepEqual(await response.json(), { status: 'ready' });
  t.is((await fetch(`${unixReplica.httpUrl}/metrics`)).status, 404);

  t.regex(unixReplica.metricsUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
  const detail = (await (await fetch(`${unixReplica.metricsUrl}/health/ready`)).json()) as { status: string; dependencies: Array<{ name: string }> };
  t.is(detail.status, 'ready');
  t.deepEqual(detail.dependencies.map((d) => d.name), ['postgres', 'migrations', 'redis', 'nats', 'temporal']);
  const metrics = await fetch(`${unixReplica.metricsUrl}/metrics`);
  t.is(metrics.status, 200);
  t.regex(await metrics.text(), /^http_requests_total\{method="GET",route="\/health\/ready",status="200"\} [1-9]/m);
});
