import test from 'ava';
import pg from 'pg';
import type { ChatMessage, MemberRoomView, MediaItem } from '../../../contracts/room/model.js';
import type { Caller } from '../../../actors/runtime/actor-type.js';
import { waitFor } from '../../fixtures/deadline.js';
import { ActorCluster } from '../../harness/actor-cluster.js';
import { runSvc } from '../../harness/svc-process.js';

// Rooms served by real `svc serve --role actors` processes: what a user of a room sees when
// the host holding the room dies or is drained.
const alice: Caller = { userId: 'alice', name: 'Alice' };
const SEND_TIMEOUT_MS = 10_000;

async function createRoom(cluster: ActorCluster, roomId: string): Promise<void> {
  await cluster.client.send('room', roomId, { kind: 'room.create', name: `Room ${roomId}`, visibility: 'public' }, { caller: alice, timeoutMs: SEND_TIMEOUT_MS });
}

async function say(cluster: ActorCluster, roomId: string, text: string): Promise<ChatMessage> {
  const { result } = await cluster.client.send<{ message: ChatMessage }>('room', roomId, { kind: 'chat.send', text }, { caller: alice, timeoutMs: SEND_TIMEOUT_MS });
  return result.message;
}

async function history(cluster: ActorCluster, roomId: string): Promise<string[]> {
  const texts: string[] = [];
  let before: string | null | undefined;
  do {
    const { result } = await cluster.client.send<{ messages: ChatMessage[]; nextBefore: string | null }>(
      'room',
      roomId,
      { kind: 'chat.history', limit: 100, ...(before ? { before } : {}) },
      { caller: alice, timeoutMs: SEND_TIMEOUT_MS },
    );
    texts.push(...result.messages.map((message) => message.text));
    before = result.nextBefore;
  } while (before);
  return texts.reverse();
}

test('kill -9 of the owning host: the room answers from another host and no acknowledged chat message is lost', async (t) => {
  const cluster = await ActorCluster.start({ label: 'room_kill', hosts: 3 });
  t.teardown(() => cluster.stop());
  await createRoom(cluster, 'kill-room');
  const owner = await cluster.ownerOf('room', 'kill-room');
  t.truthy(owner);

  const acknowledged: string[] = [];
  for (let i = 0; i < 40; i += 1) {
    if (i === 15) await cluster.kill(owner as string);
    const message = await say(cluster, 'kill-room', `message ${i}`);
    acknowledged.push(message.text);
  }

  const newOwner = await cluster.ownerOf('room', 'kill-room');
  t.truthy(newOwner);
  t.not(newOwner, owner);
  t.deepEqual(await history(cluster, 'kill-room'), acknowledged);
});

test('playback survives failover: same media, never behind the persisted position', async (t) => {
  const cluster = await ActorCluster.start({ label: 'room_playback', hosts: 2 });
  t.teardown(() => cluster.stop());
  await createRoom(cluster, 'play-room');
  const { result: pushed } = await cluster.client.send<{ item: MediaItem }>(
    'room',
    'play-room',
    { kind: 'playlist.push', title: 'Big Buck Bunny', url: 'https://media.example.com/bbb.mp4', provider: 'direct' },
    { caller: alice },
  );
  await cluster.client.send('room', 'play-room', { kind: 'playlist.setCurrent', mediaId: pushed.item.id }, { caller: alice });
  await cluster.client.send('room', 'play-room', { kind: 'playback.seek', position: 120 }, { caller: alice });
  await cluster.client.send('room', 'play-room', { kind: 'playback.play' }, { caller: alice });
  const before = await cluster.client.send<MemberRoomView>('room', 'play-room', { kind: 'room.get' }, { caller: alice });

  // Position changes are persisted lazily (at most the persist interval later): wait for the
  // row that a failover will start from, then kill the owner.
  const pool = new pg.Pool({ connectionString: cluster.databaseUrl, max: 1 });
  t.teardown(() => pool.end());
  const persisted = await waitFor(
    'playback persisted as playing',
    async () => {
      const { rows } = await pool.query<{ playing: boolean; position: number }>('SELECT playing, position FROM room_playback WHERE room_id = $1', ['play-room']);
      return rows[0]?.playing ? rows[0] : undefined;
    },
    15_000,
  );
  t.true(persisted.position >= 120);

  await cluster.kill((await cluster.ownerOf('room', 'play-room')) as string);
  const after = await cluster.client.send<MemberRoomView>('room', 'play-room', { kind: 'room.get' }, { caller: alice, timeoutMs: SEND_TIMEOUT_MS });

  t.is(after.result.playback.mediaId, pushed.item.id);
  t.true(after.result.playback.playing);
  t.true(after.result.playback.position >= before.result.playback.position, `${after.result.playback.position} < ${before.result.playback.position}`);
  // A new activation is a gap in seq, which tells clients to re-read the snapshot.
  t.true(after.seq > before.seq);
});

test('the current media survives kill -9 right after it was set', async (t) => {
  const cluster = await ActorCluster.start({ label: 'room_current', hosts: 2 });
  t.teardown(() => cluster.stop());
  await createRoom(cluster, 'current-room');
  const { result: pushed } = await cluster.client.send<{ item: MediaItem }>(
    'room',
    'current-room',
    { kind: 'playlist.push', title: 'Sintel', url: 'https://media.example.com/sintel.m3u8', provider: 'hls' },
    { caller: alice },
  );
  await cluster.client.send('room', 'current-room', { kind: 'playlist.setCurrent', mediaId: pushed.item.id }, { caller: alice });
  await cluster.kill((await cluster.ownerOf('room', 'current-room')) as string);
  const after = await cluster.client.send<MemberRoomView>('room', 'current-room', { kind: 'room.get' }, { caller: alice, timeoutMs: SEND_TIMEOUT_MS });
  t.is(after.result.playback.mediaId, pushed.item.id);
});

test('graceful drain hands rooms off without an error reaching the client', async (t) => {
  const cluster = await ActorCluster.start({ label: 'room_drain', hosts: 2 });
  t.teardown(() => cluster.stop());
  await createRoom(cluster, 'drain-room');
  const owner = (await cluster.ownerOf('room', 'drain-room')) as string;

  const sends: Array<Promise<ChatMessage>> = [];
  let draining: Promise<number | null> | undefined;
  for (let i = 0; i < 60; i += 1) {
    sends.push(say(cluster, 'drain-room', `drain ${i}`));
    if (i === 20) draining = cluster.drain(owner);
    if (i % 10 === 9) await Promise.all(sends.slice(-10));
  }
  const messages = await Promise.all(sends);
  t.is(await draining, 0);
  t.is(messages.length, 60);
  const stored = await history(cluster, 'drain-room');
  t.deepEqual([...stored].sort(), messages.map((message) => message.text).sort());
  t.not(await cluster.ownerOf('room', 'drain-room'), owner);
});

test('system stats of an actor host counts its active actors', async (t) => {
  const cluster = await ActorCluster.start({ label: 'room_stats', hosts: 1 });
  t.teardown(() => cluster.stop());
  await createRoom(cluster, 'stats-a');
  await createRoom(cluster, 'stats-b');
  const [host] = [...cluster.hosts.values()];
  const result = await runSvc(['system', 'stats', '--output', 'json'], host?.cliEnv ?? {});
  t.is(result.code, 0, result.stderr);
  const stats = JSON.parse(result.stdout) as { roles: string[]; activeActors: number };
  t.deepEqual(stats.roles, ['actors']);
  t.is(stats.activeActors, 2);
});
