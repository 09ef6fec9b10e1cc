import { randomUUID } from 'node:crypto';
import test from 'ava';
import { connect, type NatsConnection } from 'nats';
import type { UserCaller } from '../../../accounts/model.js';
import type { MemberRoomView } from '../../../actors/room/index.js';
import { ActorClient } from '../../../actors/runtime/client.js';
import { ActorEvents } from '../../../actors/runtime/events.js';
import { newRoomId, RoomClient } from '../../../gateways/rooms/room-client.js';
import { RoomFeeds, type FeedEvent } from '../../../gateways/rooms/room-feed.js';
import { RoomWatcher } from '../../../gateways/rooms/room-watch.js';
import { createLogger } from '../../../observability/logger.js';
import { natsOptions } from '../../../server/connections.js';
import { eventually } from '../../fixtures/deadline.js';
import { startPrivateNats, type PrivateServer } from '../../harness/stack.js';
import { startGatewayBed, type GatewayBed } from '../bed.js';

const logger = createLogger({ level: 'fatal', destination: 'stderr' });
let nats: PrivateServer;
let bed: GatewayBed;
let nc: NatsConnection;

test.before(async () => {
  nats = await startPrivateNats();
  bed = await startGatewayBed('room_watch_reconnect', { env: { SVC_NATS_URL: nats.url } });
  nc = await connect(natsOptions([nats.url], 'room-watch-test'));
});
test.after.always(async () => {
  await nc?.close();
  await bed?.close();
  await nats?.destroy();
});

const person = (name: string): UserCaller => ({ kind: 'user', userId: `${name}-${randomUUID().slice(0, 8)}`, sessionId: randomUUID(), username: name, displayName: name, role: 'user' });

test('after NATS comes back a watch hands its client a fresh snapshot (events may have been lost meanwhile), then carries on', async (t) => {
  const rooms = new RoomClient(new ActorClient(nc, bed.config.nats.subject_prefix));
  const feeds = new RoomFeeds(new ActorEvents(nc, bed.config.nats.subject_prefix, logger), nc, logger);
  const watcher = new RoomWatcher(feeds, rooms, bed.service.settings, logger);
  const [owner, member] = [person('owner'), person('member')];
  const roomId = newRoomId();
  await rooms.send(roomId, { kind: 'room.create', name: 'Resilient', visibility: 'public' }, owner);
  await rooms.send(roomId, { kind: 'member.join' }, member);
  const watch = await watcher.open({ roomId, caller: member, connectionId: randomUUID() });
  const snapshots: MemberRoomView[] = [];
  const events: FeedEvent[] = [];
  watch.begin({ event: (event) => events.push(event), snapshot: (view) => snapshots.push(view), ended: () => undefined });

  await nats.stop();
  await nats.start();
  await eventually(async () => snapshots.length > 0, 30_000, 'a fresh snapshot after the reconnect');
  t.true(snapshots[0]!.members!.some((m) => m.userId === member.userId && m.online));

  // The snapshot's seq continues: later events come after it, once each.
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
  await watch.close();
  feeds.close();
});
