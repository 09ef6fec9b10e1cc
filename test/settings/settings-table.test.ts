import test from 'ava';
import pg from 'pg';
import { AppError } from '../../errors/app-error.js';
import { createLogger } from '../../observability/logger.js';
import { SETTINGS_CHANNEL, decodeNotice, type SettingsChangeNotice } from '../../settings/change-notification.js';
import { SettingsStore } from '../../settings/settings-table.js';
import { migrate } from '../../postgres/migrate.js';
import { createPool } from '../../postgres/pool.js';
import { withDeadline } from '../fixtures/deadline.js';
import { freshDatabase } from '../harness/stack.js';

// One database for the file; tests run concurrently, so each one writes its own keys.
let url: string;
let pool: pg.Pool;
let store: SettingsStore;
const alice = { actor: 'alice', source: 'test', replicaId: 'replica-a' };

test.before(async () => {
  url = await freshDatabase('settings_store');
  pool = createPool({ url, max: 6, applicationName: 'svc-test-store' });
  await migrate(pool, createLogger({ level: 'silent' }));
  store = new SettingsStore(pool);
});

test.after.always(async () => {
  await pool?.end();
});

async function rowsOf(key: string): Promise<{ settings: number; history: number }> {
  const { rows } = await pool.query<{ settings: number; history: number }>(
    `SELECT (SELECT count(*)::int FROM settings WHERE key = $1) AS settings,
            (SELECT count(*)::int FROM settings_history WHERE key = $1) AS history`,
    [key],
  );
  return rows[0] ?? { settings: -1, history: -1 };
}

test('a write stores the value and its history row in the same transaction', async (t) => {
  const [change] = await store.update([{ key: 'server.maxRoomsPerUser', value: 20 }], alice);
  t.like(change, { key: 'server.maxRoomsPerUser', oldValue: 10, oldIsDefault: true, newValue: 20, version: 1, updatedBy: 'alice' });

  const loaded = (await store.loadAll()).get('server.maxRoomsPerUser');
  t.like(loaded, { value: 20, version: 1, updatedBy: 'alice' });

  // xmin is the id of the transaction that wrote a row: equal ids mean one transaction.
  const { rows } = await pool.query<{ settings_xid: string; history_xid: string }>(
    `SELECT (SELECT xmin::text FROM settings WHERE key = 'server.maxRoomsPerUser') AS settings_xid,
            (SELECT xmin::text FROM settings_history WHERE key = 'server.maxRoomsPerUser') AS history_xid`,
  );
  t.truthy(rows[0]?.settings_xid);
  t.is(rows[0]?.settings_xid, rows[0]?.history_xid);
});

test('history shows old and new values, who changed them and from where, newest first', async (t) => {
  const bob = { actor: 'bob', source: 'management:unix' };
  await store.update([{ key: 'server.maxMembersPerRoom', value: 200 }], alice);
  const [second] = await store.update([{ key: 'server.maxMembersPerRoom', value: 300 }], bob);
  t.like(second, { oldValue: 200, oldIsDefault: false, newValue: 300, version: 2 });

  const history = await store.history('server.maxMembersPerRoom');
  t.is(history.length, 2);
  t.like(history[0], {
    key: 'server.maxMembersPerRoom',
    oldValue: 200,
    oldIsDefault: false,
    newValue: 300,
    changedBy: 'bob',
    source: 'management:unix',
    replicaId: null,
  });
  t.like(history[1], {
    oldValue: 100,
    oldIsDefault: true,
    newValue: 200,
    changedBy: 'alice',
    source: 'test',
    replicaId: 'replica-a',
  });
  t.true(history[1]?.changedAt instanceof Date);
  t.is((await store.history('server.maxMembersPerRoom', 1)).length, 1);
});

test('a batch with one invalid value writes nothing and reports every problem', async (t) => {
  const err = await t.throwsAsync(
    store.update(
      [
        { key: 'chat.maxMessagesPerRoom', value: 1000 },
        { key: 'chat.messageRetentionDays', value: 0 },
        { key: 'chat.noSuchSetting', value: true },
      ],
      alice,
    ),
    { instanceOf: AppError },
  );
  t.is(err?.code, 'invalid_argument');
  t.deepEqual(
    err?.issues.map((issue) => issue.key),
    ['chat.messageRetentionDays', 'chat.noSuchSetting'],
  );
  t.deepEqual(await rowsOf('chat.maxMessagesPerRoom'), { settings: 0, history: 0 }, 'the valid change was not written');
  t.deepEqual(await rowsOf('chat.messageRetentionDays'), { settings: 0, history: 0 });
});

test('an unknown key is refused by name', async (t) => {
  const err = await t.throwsAsync(store.update([{ key: 'server.maxRoomPerUser', value: 3 }], alice), { instanceOf: AppError });
  t.is(err?.code, 'invalid_argument');
  t.regex(err?.message ?? '', /server\.maxRoomPerUser/);
  await t.throwsAsync(store.history('server.maxRoomPerUser'), { message: /server\.maxRoomPerUser/ });
});

test('writing the value a key already has changes nothing', async (t) => {
  // room.passwordPolicy defaults to "optional"; writing the default leaves the key unwritten.
  t.deepEqual(await store.update([{ key: 'room.passwordPolicy', value: 'optional' }], alice), []);
  t.deepEqual(await rowsOf('room.passwordPolicy'), { settings: 0, history: 0 });

  const [changed] = await store.update([{ key: 'room.passwordPolicy', value: 'required' }], alice);
  t.is(changed?.version, 1);
  t.deepEqual(await store.update([{ key: 'room.passwordPolicy', value: 'required' }], alice), []);
  t.deepEqual(await rowsOf('room.passwordPolicy'), { settings: 1, history: 1 });
});

test('an equal JSON value with its object keys in another order is unchanged', async (t) => {
  const servers = [{ urls: ['stun:stun.example.net:3478'], username: 'u', credential: 'c' }];
  await store.update([{ key: 'webrtc.externalIceServers', value: servers }], alice);
  const reordered = [{ credential: 'c', username: 'u', urls: ['stun:stun.example.net:3478'] }];
  t.deepEqual(await store.update([{ key: 'webrtc.externalIceServers', value: reordered }], alice), []);
  t.deepEqual(await rowsOf('webrtc.externalIceServers'), { settings: 1, history: 1 });
});

test('a key never written is absent from the table and has no history', async (t) => {
  t.false((await store.loadAll()).has('user.enableGuest'));
  t.deepEqual(await store.history('user.enableGuest'), []);
});

test('the change notice is sent on commit only, naming keys and versions', async (t) => {
  const listener = new pg.Client({ connectionString: url });
  await listener.connect();
  t.teardown(() => listener.end());
  const notices: SettingsChangeNotice[] = [];
  let arrived: () => void = () => undefined;
  listener.on('notification', (message) => {
    const notice = decodeNotice(message.payload);
    if (notice?.keys.some((key) => key.startsWith('rtmp.'))) {
      notices.push(notice);
      arrived();
    }
  });
  await listener.query(`LISTEN ${SETTINGS_CHANNEL}`);

  // This batch fails validation: it must never be announced.
  await t.throwsAsync(
    store.update(
      [
        { key: 'rtmp.tsDisguisedAsPng', value: true },
        { key: 'rtmp.customPublishHost', value: 'not a host/with a path' },
      ],
      alice,
    ),
  );
  const announced = new Promise<void>((resolve) => (arrived = resolve));
  await store.update(
    [
      { key: 'rtmp.tsDisguisedAsPng', value: true },
      { key: 'rtmp.customPublishHost', value: 'live.example.com' },
    ],
    alice,
  );
  await withDeadline(announced, 5_000, 'change notice');
  t.deepEqual(notices[0], {
    keys: ['rtmp.tsDisguisedAsPng', 'rtmp.customPublishHost'],
    versions: [1, 1],
    replicaId: 'replica-a',
  });
});
