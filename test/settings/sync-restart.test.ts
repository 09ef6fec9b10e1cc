import test from 'ava';
import { createLogger } from '../../observability/logger.js';
import { RuntimeSettings, type ReloadEvent } from '../../settings/runtime-settings.js';
import { SettingsStore } from '../../settings/settings-table.js';
import { migrate } from '../../postgres/migrate.js';
import { createPool } from '../../postgres/pool.js';
import { withDeadline } from '../fixtures/deadline.js';
import { startPrivatePostgres } from '../harness/stack.js';

test('a replica keeps retrying through a PostgreSQL restart and follows changes afterwards', async (t) => {
  const postgres = await startPrivatePostgres();
  t.teardown(() => postgres.destroy());
  const logger = createLogger({ level: 'silent' });
  const pool = createPool({ url: postgres.url, max: 2, applicationName: 'svc-test-restart', logger });
  await migrate(pool, logger);
  const settings = await RuntimeSettings.start({ pool, connectionString: postgres.url, logger, replicaId: 'replica-s' });
  t.teardown(async () => {
    await settings.stop();
    await pool.end();
  });

  const reconnected = new Promise<ReloadEvent>((resolve) => {
    settings.onReload((event) => {
      if (event.reason === 'reconnect') resolve(event);
    });
  });
  // While the server is down every reconnect attempt fails; the listener must keep going.
  await postgres.stop();
  await postgres.start();
  await withDeadline(reconnected, 30_000, 'listener back after the restart');

  const changed = new Promise<void>((resolve) => {
    settings.subscribe(() => resolve(), ['proxy.liveProxy']);
  });
  await new SettingsStore(pool).update([{ key: 'proxy.liveProxy', value: false }], { actor: 'test', source: 'test' });
  await withDeadline(changed, 5_000, 'notified change after the restart');
  t.false(settings.get('proxy.liveProxy'));
});
