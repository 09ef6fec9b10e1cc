import test from 'ava';
import { createLogger } from '../../observability/logger.js';
import { LISTENER_APPLICATION_NAME, RuntimeSettings, type ReloadEvent } from '../../settings/runtime-settings.js';
import { migrate } from '../../postgres/migrate.js';
import { createPool } from '../../postgres/pool.js';
import { eventually, withDeadline } from '../fixtures/deadline.js';
import { freshDatabase } from '../harness/stack.js';

test('after its listener connection is killed, a replica reloads what it missed', async (t) => {
  // Own database: the listener backend is found by application name within it.
  const url = await freshDatabase('settings_sync_reconnect');
  const pool = createPool({ url, max: 4, applicationName: 'svc-test-reconnect' });
  const logger = createLogger({ level: 'silent' });
  await migrate(pool, logger);
  const settings = await RuntimeSettings.start({ pool, connectionString: url, logger, replicaId: 'replica-r' });
  t.teardown(async () => {
    await settings.stop();
    await pool.end();
  });

  const listenerPids = async (): Promise<number[]> => {
    const { rows } = await pool.query<{ pid: number }>(
      'SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1',
      [LISTENER_APPLICATION_NAME],
    );
    return rows.map((row) => row.pid);
  };
  const [oldPid] = await listenerPids();
  t.truthy(oldPid, 'the listener connection is visible');

  // A change that bypasses NOTIFY, as if its notification had been lost.
  await pool.query(
    `INSERT INTO settings (key, value, version, updated_by) VALUES ('server.maxChatMessages', '777', 1, 'raw-sql')`,
  );
  t.is(settings.get('server.maxChatMessages'), 500, 'without a notification the cache has not seen it');

  const reloaded = new Promise<ReloadEvent>((resolve) => {
    settings.onReload((event) => {
      if (event.reason === 'reconnect') resolve(event);
    });
  });
  await pool.query('SELECT pg_terminate_backend($1)', [oldPid]);

  const event = await withDeadline(reloaded, 15_000, 'reload after reconnect');
  t.deepEqual(event.changedKeys, ['server.maxChatMessages']);
  t.is(settings.get('server.maxChatMessages'), 777);
  const [newPid] = await listenerPids();
  t.truthy(newPid);
  t.not(newPid, oldPid, 'a new listener connection replaced the killed one');

  // And the new connection is really listening: a normal write arrives by notification.
  const arrived = new Promise<void>((resolve) => {
    settings.subscribe(() => resolve(), ['server.maxChatMessages']);
  });
  await pool.query(
    `WITH w AS (UPDATE settings SET value = '778', version = 2 WHERE key = 'server.maxChatMessages')
     SELECT pg_notify('svc_settings', '{"keys":["server.maxChatMessages"],"versions":[2],"replicaId":null}')`,
  );
  await withDeadline(arrived, 5_000, 'notified change after reconnect');
  t.is(settings.get('server.maxChatMessages'), 778);

  // stop() closes the listener for good: its backend goes away.
  await settings.stop();
  await eventually(async () => (await listenerPids()).length === 0, 5_000, 'listener backend gone after stop');
  t.deepEqual(await listenerPids(), []);
});
