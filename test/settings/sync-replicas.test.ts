import test from 'ava';
import type pg from 'pg';
import { createLogger } from '../../observability/logger.js';
import { SettingsStore } from '../../settings/settings-table.js';
import { migrate } from '../../postgres/migrate.js';
import { createPool } from '../../postgres/pool.js';
import { startSettingsWatch, waitForChange } from '../fixtures/settings-watch.js';
import type { SvcProcess } from '../harness/svc-process.js';
import { freshDatabase } from '../harness/stack.js';

let url: string;
let pool: pg.Pool;
const watchers: SvcProcess[] = [];

test.before(async () => {
  url = await freshDatabase('settings_sync_replicas');
  pool = createPool({ url, max: 2, applicationName: 'svc-test-sync' });
  await migrate(pool, createLogger({ level: 'silent' }));
});

test.after.always(async () => {
  await Promise.all(watchers.map((watch) => watch.stop()));
  await pool?.end();
});

test('a write in this process reaches two separate replica processes', async (t) => {
  const [first, second] = await Promise.all([startSettingsWatch(url), startSettingsWatch(url, ['--key', 'server.maxMembersPerRoom'])]);
  watchers.push(first, second);

  const store = new SettingsStore(pool);
  const before = Date.now();
  await store.update([{ key: 'server.maxMembersPerRoom', value: 250 }], { actor: 'test', source: 'test' });

  for (const watch of [first, second]) {
    const line = await waitForChange(watch, 'server.maxMembersPerRoom', 1);
    t.is(line.value, 250);
    t.true(line.appliedAt >= before - 1, 'appliedAt is an epoch-milliseconds time of this run');
  }

  // The filtered watcher prints only its key; the unfiltered one prints everything.
  await store.update(
    [
      { key: 'user.enableGuest', value: false },
      { key: 'server.maxMembersPerRoom', value: 260 },
    ],
    { actor: 'test', source: 'test' },
  );
  t.is((await waitForChange(first, 'user.enableGuest', 1)).value, false);
  t.is((await waitForChange(second, 'server.maxMembersPerRoom', 2)).value, 260);
  t.false(second.lines.some((line) => line.includes('user.enableGuest')), 'the --key filter holds');
});

test('the watch command refuses an unknown --key by name', async (t) => {
  const err = await t.throwsAsync(startSettingsWatch(url, ['--key', 'server.noSuchThing']));
  t.regex(err?.message ?? '', /error\[invalid_argument\]: server\.noSuchThing/);
});
