import test from 'ava';
import pg from 'pg';
import type { MediaItem, MemberRoomView } from '../../../contracts/room/model.js';
import type { Caller } from '../../../actors/runtime/actor-type.js';
import { commandSubject } from '../../../actors/runtime/names.js';
import { decode } from '../../../actors/runtime/wire.js';
import { waitFor } from '../../fixtures/deadline.js';
import { ActorCluster } from '../../harness/actor-cluster.js';
import { startPrivatePostgres } from '../../harness/stack.js';

// Rooms on real `svc serve --role actors` processes when a command outlives its activation or
// PostgreSQL goes away under it: exactly once, and no acknowledged change lost.
const alice: Caller = { userId: 'alice', name: 'Alice' };

async function createRoomWithMedia(cluster: ActorCluster, roomId: string): Promise<MediaItem> {
  await cluster.client.send('room', roomId, { kind: 'room.create', name: `Room ${roomId}`, visibility: 'public' }, { caller: alice, timeoutMs: 10_000 });
  const { result } = await cluster.client.send<{ item: MediaItem }>(
    'room',
    roomId,
    { kind: 'playlist.push', title: 'Feature', url: 'https://media.example.com/feature.mp4' },
    { caller: alice, timeoutMs: 10_000 },
  );
  await cluster.client.send('room', roomId, { kind: 'playlist.setCurrent', mediaId: result.item.id }, { caller: alice, timeoutMs: 10_000 });
  return result.item;
}

async function roomView(cluster: ActorCluster, roomId: string): Promise<MemberRoomView> {
  return (await cluster.client.send<MemberRoomView>('room', roomId, { kind: 'room.get' }, { caller: alice, timeoutMs: 20_000 })).result;
}

test('a push that commits on a draining host after its tries timed out is applied once, and its retry gets the original answer', async (t) => {
  const cluster = await ActorCluster.start({ label: 'room_slow_push', hosts: 2 });
  t.teardown(() => cluster.stop());
  const roomId = 'slow-room';
  await cluster.client.send('room', roomId, { kind: 'room.create', name: 'Slow', visibility: 'public' }, { caller: alice, timeoutMs: 10_000 });
  const owner = (await cluster.ownerOf('room', roomId)) as string;

  // Hold inserts into the playlist so the push waits inside its transaction.
  const locker = new pg.Client({ connectionString: cluster.databaseUrl });
  await locker.connect();
  t.teardown(() => locker.end());
  await locker.query('BEGIN');
  await locker.query('LOCK TABLE room_playlist IN SHARE ROW EXCLUSIVE MODE');

  // Every copy of the command on the wire: the first send and each retry of it.
  const copies: string[] = [];
  const tap = cluster.nc.subscribe(commandSubject(cluster.prefix, 'room', roomId), {
    callback: (_err, msg) => copies.push(String((decode(msg.data) as { id?: unknown } | undefined)?.id)),
  });
  t.teardown(() => tap.unsubscribe());

  const push = cluster.client.send<{ item: MediaItem; index: number }>(
    'room',
    roomId,
    { kind: 'playlist.push', title: 'Only once', url: 'https://media.example.com/once.mp4' },
    { caller: alice, timeoutMs: 60_000, commandId: 'push-once' },
  );
  // Asked from another session: pg_stat_activity is a snapshot taken once per transaction.
  const observer = new pg.Pool({ connectionString: cluster.databaseUrl, max: 1 });
  t.teardown(() => observer.end());
  await waitFor('the push waiting on the lock', async () => {
    const { rows } = await observer.query(
      "SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query ILIKE '%INSERT INTO room_playlist%'",
    );
    return rows.length > 0 ? true : undefined;
  });
  const sentBeforeDrain = copies.length;
  const drained = cluster.drain(owner);
  // The client sends a copy only once its previous try has ended: two copies after the drain
  // began mean every copy the draining host took has timed out, so its reply will go nowhere.
  await waitFor('two retries of the push after the drain began', () =>
    copies.slice(sentBeforeDrain).filter((id) => id === 'push-once').length >= 2 ? true : undefined,
  );
  await locker.query('COMMIT');

  const { result } = await push;
  t.is(await drained, 0, 'the drained host exited cleanly');
  const { rows } = await observer.query<{ media_id: string }>('SELECT media_id FROM room_playlist WHERE room_id = $1', [roomId]);
  t.deepEqual(rows.map((row) => row.media_id), [result.item.id], 'one row, and it is the item the client was told about');
  const view = await roomView(cluster, roomId);
  t.deepEqual(view.playlist?.map((item) => item.id), [result.item.id]);
});

test('a playback change whose save failed during an outage is saved once PostgreSQL is back; kill -9 later loses nothing', async (t) => {
  const database = await startPrivatePostgres();
  t.teardown(() => database.destroy());
  const cluster = await ActorCluster.start({ label: 'room_save_retry', hosts: 2, databaseUrl: database.url });
  t.teardown(() => cluster.stop());
  const roomId = 'outage-room';
  await createRoomWithMedia(cluster, roomId);
  const owner = (await cluster.ownerOf('room', roomId)) as string;
  await cluster.client.send('room', roomId, { kind: 'playback.seek', position: 600 }, { caller: alice });

  await database.stop();
  const host = cluster.hosts.get(owner);
  await host?.process.waitForLine(/could not save playback; trying again/, 20_000);
  await database.start();

  const pool = new pg.Pool({ connectionString: database.url, max: 1 });
  t.teardown(() => pool.end());
  await waitFor('the seek saved after the outage', async () => {
    const { rows } = await pool.query<{ position: number }>('SELECT position FROM room_playback WHERE room_id = $1', [roomId]);
    return rows[0]?.position === 600 ? true : undefined;
  });
  await cluster.kill(owner);
  t.is((await roomView(cluster, roomId)).playback.position, 600);
});

test('a drain while PostgreSQL is down keeps the room until its unsaved playback is saved', async (t) => {
  const database = await startPrivatePostgres();
  t.teardown(() => database.destroy());
  const cluster = await ActorCluster.start({ label: 'room_drain_outage', hosts: 2, databaseUrl: database.url });
  t.teardown(() => cluster.stop());
  const roomId = 'drain-outage-room';
  await createRoomWithMedia(cluster, roomId);
  const owner = (await cluster.ownerOf('room', roomId)) as string;
  const host = cluster.hosts.get(owner);
  await cluster.client.send('room', roomId, { kind: 'playback.seek', position: 700 }, { caller: alice });

  await database.stop();
  const drained = cluster.drain(owner);
  await host?.process.waitForLine(/could not save playback while deactivating; trying again/, 20_000);
  await database.start();
  t.is(await drained, 0);
  t.is((await roomView(cluster, roomId)).playback.position, 700);
});
