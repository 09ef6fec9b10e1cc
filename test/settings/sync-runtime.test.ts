import test from 'ava';
import type pg from 'pg';
import { AppError } from '../../errors/app-error.js';
import { createLogger } from '../../observability/logger.js';
import { RuntimeSettings, type SettingChangeEvent } from '../../settings/runtime-settings.js';
import { migrate } from '../../postgres/migrate.js';
import { createPool } from '../../postgres/pool.js';
import { withDeadline } from '../fixtures/deadline.js';
import { freshDatabase } from '../harness/stack.js';

// Two replicas' caches in one process, on one database. Tests run concurrently, so each
// writes keys of its own.
let url: string;
let pool: pg.Pool;
let replicaA: RuntimeSettings;
let replicaB: RuntimeSettings;
const logger = createLogger({ level: 'silent' });
const admin = { actor: 'admin', source: 'test' };

test.before(async () => {
  url = await freshDatabase('settings_sync_runtime');
  pool = createPool({ url, max: 6, applicationName: 'svc-test-runtime' });
  await migrate(pool, logger);
  replicaA = await RuntimeSettings.start({ pool, connectionString: url, logger, replicaId: 'replica-a' });
  replicaB = await RuntimeSettings.start({ pool, connectionString: url, logger, replicaId: 'replica-b' });
});

test.after.always(async () => {
  await replicaA?.stop();
  await replicaB?.stop();
  await pool?.end();
});

/** Resolves with the next change of `key` that `replica` applies. */
function nextChange(replica: RuntimeSettings, key: SettingChangeEvent['key']): Promise<SettingChangeEvent> {
  return new Promise((resolve) => {
    const unsubscribe = replica.subscribe(
      (change) => {
        unsubscribe();
        resolve(change);
      },
      [key],
    );
  });
}

test('keys never written read as their registry defaults', (t) => {
  t.is(replicaA.get('chat.messageRetentionDays'), 90);
  t.is(replicaA.get('room.passwordPolicy'), 'optional');
  const entry = replicaA.snapshot().find((item) => item.key === 'chat.messageRetentionDays');
  t.like(entry, { value: 90, isDefault: true, version: 0 });
  t.is(entry?.updatedAt, undefined);
});

test('a write is in the writing replica at once and reaches the other one', async (t) => {
  const seenByB = nextChange(replicaB, 'chat.maxPinnedMessagesPerRoom');
  const seenByA = nextChange(replicaA, 'chat.maxPinnedMessagesPerRoom');

  const [change] = await replicaA.update('chat', { maxPinnedMessagesPerRoom: 40 }, admin);
  t.like(change, { key: 'chat.maxPinnedMessagesPerRoom', oldValue: 20, newValue: 40, version: 1 });
  t.is(replicaA.get('chat.maxPinnedMessagesPerRoom'), 40, 'no wait for its own notification');
  t.like(await seenByA, { value: 40, previous: 20, version: 1 });

  const event = await withDeadline(seenByB, 5_000, 'change on replica B');
  t.like(event, { key: 'chat.maxPinnedMessagesPerRoom', value: 40, previous: 20, version: 1 });
  t.is(replicaB.get('chat.maxPinnedMessagesPerRoom'), 40);
  t.like(
    replicaB.snapshot().find((item) => item.key === 'chat.maxPinnedMessagesPerRoom'),
    { value: 40, isDefault: false, version: 1, updatedBy: 'admin' },
  );

  const [entry] = await replicaB.history('chat.maxPinnedMessagesPerRoom', 1);
  t.like(entry, { changedBy: 'admin', replicaId: 'replica-a', oldValue: 20, newValue: 40 });
});

test('values handed out cannot be changed by the caller', async (t) => {
  await replicaA.update('permissions', { guestDefaultPermissions: ['view_member_list'] }, admin);
  const permissions = replicaA.get('permissions.guestDefaultPermissions');
  t.throws(() => (permissions as string[]).push('send_chat'));
  t.deepEqual(replicaA.get('permissions.guestDefaultPermissions'), ['view_member_list']);
  const servers = replicaA.get('webrtc.externalIceServers');
  t.throws(() => {
    (servers[0] as { urls: string[] }).urls[0] = 'stun:evil.example.com:3478';
  });
});

test('updateRaw decodes CLI text forms and reports every bad one, writing nothing', async (t) => {
  const err = await t.throwsAsync(
    replicaA.updateRaw('user', { enablePasswordSignup: 'true', enableEmailSignup: 'yes', enableTelepathy: 'true' }, admin),
    { instanceOf: AppError },
  );
  t.deepEqual(
    err?.issues.map((issue) => issue.key),
    ['user.enableEmailSignup', 'user.enableTelepathy'],
  );
  t.false(replicaA.get('user.enablePasswordSignup'));
  t.deepEqual(await replicaA.history('user.enablePasswordSignup'), [], 'nothing was written');

  const changes = await replicaA.updateRaw('user', { enablePasswordSignup: 'true', passwordSignupNeedReview: 'true' }, admin);
  t.deepEqual(
    changes.map((change) => [change.key, change.newValue]),
    [
      ['user.enablePasswordSignup', true],
      ['user.passwordSignupNeedReview', true],
    ],
  );
  t.true(replicaA.get('user.enablePasswordSignup'));
});

test('update checks that every name belongs to the group', async (t) => {
  const err = await t.throwsAsync(replicaA.update('proxy', { movieProxy: false, maxRoomsPerUser: 3 }, admin), {
    instanceOf: AppError,
  });
  t.deepEqual(err?.issues, [{ key: 'proxy.maxRoomsPerUser', message: 'unknown runtime setting' }]);
  t.true(replicaA.get('proxy.movieProxy'), 'the valid half was not written');
  await t.throwsAsync(replicaA.update('nosuchgroup', { a: 1 }, admin), { message: /nosuchgroup/ });
});
