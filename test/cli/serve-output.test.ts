import test from 'ava';
import { freshDatabase } from '../harness/stack.js';
import { runSvc } from '../harness/svc-process.js';
import { generatedSecrets, replicaEnv, startReplica } from '../harness/replica.js';

// What a person starting the service reads last must be where to reach it, not the start's log.
test('svc serve prints its addresses after the log of its start', async (t) => {
  const databaseUrl = await freshDatabase('serve_output');
  const migrated = await runSvc(['migrate'], { SVC_DATABASE_URL: databaseUrl });
  t.is(migrated.code, 0, migrated.stderr);
  const replica = await startReplica(['--role', 'gateway'], await replicaEnv(databaseUrl, await generatedSecrets(), { SVC_LOG_LEVEL: 'info' }));
  t.teardown(() => replica.process.stop());

  const lines = replica.process.lines;
  const ready = lines.findIndex((line) => line.startsWith('{') && line.includes('"msg":"svc ready"'));
  const firstAddress = lines.findIndex((line) => line.startsWith('svc web client: '));
  t.true(ready >= 0, replica.process.output());
  t.true(firstAddress > ready, `the addresses come after "svc ready":\n${lines.join('\n')}`);
});
