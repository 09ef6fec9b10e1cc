import { randomUUID } from 'node:crypto';
import test, { type ExecutionContext } from 'ava';
import { connect, type NatsConnection } from 'nats';
import type { UserCaller } from '../../../accounts/model.js';
import type { MemberRoomView } from '../../../actors/room/index.js';
import { ActorClient } from '../../../actors/runtime/client.js';
import { ActorEvents } from '../../../actors/runtime/events.js';
import { newRoomId, RoomClient } from '../../../gateways/rooms/room-client.js';
import { RoomFeeds, type FeedEvent } from '../../../gateways/rooms/room-feed.js';
import { RoomWatcher, type RoomWatch } from '../../../gateways/rooms/room-watch.js';
import { natsOptions } from '../../../server/connections.js';
import { eventually } from '../../fixtures/deadline.js';
import { capturingLogger } from '../http/fixtures.js';
import { generatedSecrets, replicaEnv, startReplica, type Replica } from '../../harness/replica.js';
import { startPrivateNats, type PrivateServer } from '../../harness/stack.js';
import { startGatewayBed, type GatewayBed } from '../bed.js';

// The tests restart the one NATS server, or the rooms' host.
let nats: PrivateServer;
let bed: GatewayBed;
/** The rooms' actor host, a `svc serve --role actors` of its own so that a test can pause it. */
let host: Replica;
let nc: NatsConnection;

test.before(async () => {
  nats = await startPrivateNats();
  bed = await startGatewayBed('room_watch_reconnect', { roles: ['gateway'], env: { SVC_NATS_URL: nats.url } });
  const env = await replicaEnv(bed.databaseUrl, await generatedSecrets(), {
    SVC_NATS_URL: nats.url,
    SVC_NATS_SUBJECT_PREFIX: bed.config.nats.subject_prefix,
  });
  host = await startReplica(['--role', 'actors', '--replica-id', 'rooms-host'], env);
  nc = await connect(natsOptions([nats.url], 'room-watch-test'));
});
test.after.always(async () => {
  host?.process.child.kill('SIGCONT');
  await host?.process.stop('SIGKILL');
  await nc?.close();
  await bed?.close();
  await nats?.destroy();
});

const person = (name: string): UserCaller => ({ kind: 'user', userId: `${name}-${randomUUID().slice(0, 8)}`, sessionId: randomUUID(), username: name, displayName: name, role: 'user' });

interface Watched {
  rooms: RoomClient;
  owner: UserCaller;
  member: UserCaller;
  roomId: string;
  connectionId: string;
  watch: RoomWatch;
  snapshots: MemberRoomView[];
  events: FeedEvent[];
  logged: Array<Record<string, unknown>>;
  close(): Promise<void>;
}

/** A member watching a new room through this process's own feeds. */
async function watchNewRoom(): Promise<Watched> {
  const { logger, lines } = capturingLogger();
  const rooms = new RoomClient(new ActorClient(nc, bed.config.nats.subject_prefix));
  const feeds = new RoomFeeds(new ActorEvents(nc, bed.config.nats.subject_prefix, logger), nc, logger);
  const watcher = new RoomWatcher(feeds, rooms, bed.service.settings, logger);
  const [owner, member] = [person('owner'), person('member')];
  const roomId = newRoomId();
  await rooms.send(roomId, { kind: 'room.create', name: 'Resilient', visibility: 'public' }, owner);
  await rooms.send(roomId, { kind: 'member.join' }, member);
  const connectionId = randomUUID();
  const watch = await watcher.open({ roomId, caller: member, connectionId });
  const snapshots: MemberRoomView[] = [];
  const events: FeedEvent[] = [];
  watch.begin({ event: (event) => events.push(event), snapshot: (view) => snapshots.push(view), ended: () => undefined });
  return {
    rooms, owner, member, roomId, connectionId, watch, snapshots, events, logged: lines,
    async close() {
      await watch.close();
      feeds.close();
    },
  };
}

/** The member is online in the fresh snapshot, and later events follow it, once each. */
async function carriesOn(t: ExecutionContext, watched: Watched): Promise<void> {
  const { rooms, owner, member, roomId, snapshots, events } = watched;
  t.true(snapshots[0]!.members!.some((m) => m.userId === member.userId && m.online));
  await eventually(
    async () => {
      await rooms.send(roomId, { kind: 'chat.send', text: 'after the outage', clientMessageId: 'after' }, owner);
      return events.some((entry) => entry.event.type === 'chat.message');
    },
    30_000,
    'a chat message after the reconnect',
  );
  const chat = events.filter((entry) => entry.event.type === 'chat.message');
  t.is(chat.length, 1, 'the resent message is one message (same clientMessageId)');
  t.true(chat[0]!.seq > snapshots.at(-1)!.seq);
}

test.serial('after NATS comes back a watch hands its client a fresh snapshot (events may have been lost meanwhile), then carries on', async (t) => {
  const watched = await watchNewRoom();
  t.teardown(() => watched.close());

  await nats.stop();
  await nats.start();
  await eventually(() => watched.snapshots.length > 0, 30_000, 'a fresh snapshot after the reconnect');
  await carriesOn(t, watched);
});

test.serial('when the room\'s host comes back after the gateway does, the watch keeps reading the room until it answers', async (t) => {
  const watched = await watchNewRoom();
  t.teardown(() => watched.close());

  // The host is frozen across the outage: after NATS is back, nobody answers for the room.
  host.process.child.kill('SIGSTOP');
  t.teardown(() => void host.process.child.kill('SIGCONT'));
  await nats.stop();
  await nats.start();
  const failedRead = (line: Record<string, unknown>) => line.msg === 'reading the room again (a NATS reconnect or its reactivation) failed; trying again';
  await eventually(() => watched.logged.some(failedRead), 30_000, 'a failed read of the room while its host is stopped');
  t.is(watched.snapshots.length, 0);

  host.process.child.kill('SIGCONT');
  await eventually(() => watched.snapshots.length > 0, 60_000, 'a fresh snapshot once the host is back');
  t.is(watched.snapshots.length, 1, 'one snapshot for one outage');
  await carriesOn(t, watched);
});

test.serial("when the room's host dies, its next activation hands every watch a fresh snapshot: the voice call it held in memory is gone and the member is online at once", async (t) => {
  const watched = await watchNewRoom();
  t.teardown(() => watched.close());
  const { rooms, owner, member, roomId, connectionId } = watched;
  await rooms.send(roomId, { kind: 'voice.join', connectionId, muted: true }, member);
  await eventually(() => watched.events.some((entry) => entry.event.type === 'voice.joined'), 10_000, 'the member in the voice call');
  const before = watched.events.at(-1)!.seq;

  // No drain, so nobody is told the call ended; a new host takes the room over.
  const { env } = host;
  await host.process.stop('SIGKILL');
  host = await startReplica(['--role', 'actors', '--replica-id', 'rooms-host-2'], env);
  await eventually(
    async () => (await rooms.send(roomId, { kind: 'room.get' }, owner).then(() => true, () => false)),
    30_000,
    'the room answering from the new host',
  );
  await eventually(() => watched.snapshots.length > 0, 30_000, 'a fresh snapshot from the new activation');
  const view = watched.snapshots.at(-1)!;
  t.true(Math.floor(view.seq / 2 ** 20) > Math.floor(before / 2 ** 20), 'read from the new activation');
  t.false((view.voice ?? []).some((p) => p.userId === member.userId), 'the voice call went with the old activation');
  // Reading the room announced the connection: no wait for the next presence heartbeat (30 s).
  t.true(view.members!.some((m) => m.userId === member.userId && m.online));
  t.false(watched.events.some((entry) => entry.event.type === 'room.activated'), 'the marker itself never reaches a client');
  await carriesOn(t, watched);
});
