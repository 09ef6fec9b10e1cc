import test from 'ava';
import { loadConfig } from '../../config/load.js';

// The actor host's lease settings bound failover time; a heartbeat slower than a third of
// the lease would let one late beat expire a healthy host.
async function issuesFor(env: Record<string, string>): Promise<Array<{ key: string; message: string }>> {
  const { issues } = await loadConfig({ env });
  return issues.filter((issue) => issue.key.startsWith('actors.'));
}

test('actor defaults are valid and documented values', async (t) => {
  const { config } = await loadConfig({ env: {} });
  t.deepEqual(config.actors, {
    lease_ttl_ms: 1500,
    heartbeat_ms: 300,
    idle_timeout_ms: 300000,
    mailbox_size: 1024,
    max_queue_wait_ms: 100,
    drain_timeout_ms: 20000,
  });
  t.deepEqual(await issuesFor({}), []);
});

test('a heartbeat slower than a third of the lease is rejected naming both keys', async (t) => {
  const issues = await issuesFor({ SVC_ACTORS_LEASE_TTL_MS: '900', SVC_ACTORS_HEARTBEAT_MS: '301' });
  t.is(issues.length, 1);
  t.is(issues[0]?.key, 'actors.heartbeat_ms');
  t.regex(issues[0]?.message ?? '', /actors\.lease_ttl_ms/);
  t.deepEqual(await issuesFor({ SVC_ACTORS_LEASE_TTL_MS: '900', SVC_ACTORS_HEARTBEAT_MS: '300' }), []);
});

test('actor limits are range-checked', async (t) => {
  const issues = await issuesFor({
    SVC_ACTORS_MAILBOX_SIZE: '0',
    SVC_ACTORS_LEASE_TTL_MS: '299',
    SVC_ACTORS_IDLE_TIMEOUT_MS: '999',
    SVC_ACTORS_MAX_QUEUE_WAIT_MS: '0',
  });
  t.deepEqual(
    issues.map((issue) => issue.key),
    ['actors.lease_ttl_ms', 'actors.idle_timeout_ms', 'actors.mailbox_size', 'actors.max_queue_wait_ms'],
  );
});
