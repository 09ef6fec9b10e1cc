import test from 'ava';
import { startPrivatePostgres } from '../harness/stack.js';
import { runSvc, SvcProcess } from '../harness/svc-process.js';
import { generatedSecrets, replicaEnv } from '../harness/replica.js';
import { eventually, withDeadline } from '../fixtures/deadline.js';

// A migration started beside its database (a Compose service, a Kubernetes Job) must wait for
// PostgreSQL to come up rather than fail and leave the pools waiting on a schema that never comes.
test('svc migrate --wait keeps trying until PostgreSQL accepts connections, then migrates', async (t) => {
  const postgres = await startPrivatePostgres();
  t.teardown(() => postgres.destroy());
  await postgres.stop();

  const migrating = new SvcProcess(['migrate', '--wait', '120'], { SVC_DATABASE_URL: postgres.url });
  t.teardown(() => migrating.terminate('SIGKILL'));
  await eventually(() => migrating.stderr.includes('trying again'), 30_000, 'a retry while PostgreSQL is down');
  t.regex(migrating.stderr, /PostgreSQL is unavailable/);

  await postgres.start();
  const exit = await withDeadline(migrating.exited, 60_000, 'migrate to finish once PostgreSQL is up');
  t.is(exit.code, 0, migrating.output());
  t.true(
    migrating.lines.some((line) => /^applied \d+ migration\(s\): 0001_settings/.test(line)),
    migrating.output(),
  );
});

test('svc migrate --wait does not retry what waiting cannot fix, and names a bad --wait', async (t) => {
  const postgres = await startPrivatePostgres();
  t.teardown(() => postgres.destroy());

  // A database that does not exist is a mistake in database.url, not a slow start.
  const wrongDatabase = postgres.url.replace(/\/svc$/, '/no_such_database');
  const refused = await runSvc(['migrate', '--wait', '600'], { SVC_DATABASE_URL: wrongDatabase });
  t.not(refused.code, 0);
  t.regex(refused.stderr, /no_such_database/);
  t.notRegex(refused.stderr, /trying again/);

  for (const bad of ['soon', '1.5', '3601']) {
    const result = await runSvc(['migrate', '--wait', bad], { SVC_DATABASE_URL: postgres.url });
    t.not(result.code, 0, bad);
    t.regex(result.stderr, /--wait/, bad);
  }
});

// The pools of a Compose stack or a Kubernetes rollout start beside their dependencies; with
// --wait a pool outlasts a dependency that is still starting instead of exiting.
test('svc serve --wait starts once a dependency that was down comes up', async (t) => {
  const postgres = await startPrivatePostgres();
  t.teardown(() => postgres.destroy());
  const migrated = await runSvc(['migrate'], { SVC_DATABASE_URL: postgres.url });
  t.is(migrated.code, 0, migrated.stderr);
  await postgres.stop();

  const env = await replicaEnv(postgres.url, await generatedSecrets(), { SVC_LOG_LEVEL: 'warn' });
  const serving = new SvcProcess(['serve', '--role', 'gateway', '--wait', '120'], env);
  t.teardown(() => serving.stop());
  await eventually(() => serving.stderr.includes('trying again') || serving.lines.some((line) => line.includes('trying again')), 30_000, 'a retry while PostgreSQL is down');

  await postgres.start();
  await serving.waitForLine(/^svc HTTP API: /, 60_000);
  t.is(serving.child.exitCode, null);
});
