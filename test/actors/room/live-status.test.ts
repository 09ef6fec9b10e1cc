/**
 * A live item's on-air status in the room (actors/room/live-status.ts): only the ingest (a
 * service caller) reports it, repeated reports are a heartbeat without events, members see
 * it in `liveOnline`, and an item whose reports stop goes offline after the TTL (its
 * publisher's replica died).
 */
import test from 'ava';
import { DEFAULT_LIVE_STATUS_TTL_MS } from '../../../actors/room/index.js';
import { RoomTestBed, rejects, service, uid, user } from './fixtures.js';

let tb: RoomTestBed;
test.before(async () => {
  tb = await RoomTestBed.start('room_live_status');
});
test.after.always(() => tb?.close());

test('the ingest reports a live item on air and off; repeats refresh it silently; a dead publisher times out', async (t) => {
  const owner = user(uid('owner'));
  const room = await tb.createRoom(owner);
  const { item } = await room.send(owner, { kind: 'playlist.push', title: 'On air', provider: 'live' });
  const file = await room.send(owner, { kind: 'playlist.push', title: 'File', url: 'https://example.com/a.mp4' });
  const ingest = service('rtmp-ingest');

  await rejects(t, room.send(owner, { kind: 'live.status', mediaId: item.id, online: true }), 'forbidden', /ingest/);
  await rejects(t, room.send(ingest, { kind: 'live.status', mediaId: file.item.id, online: true }), 'invalid_argument', /is not a livestream this server serves \(provider "direct"\)/);

  t.deepEqual(await room.send(ingest, { kind: 'live.status', mediaId: item.id, online: true }), { online: true, changed: true });
  t.deepEqual(room.lastEvent('live'), { type: 'live', mediaId: item.id, online: true });
  const view = await room.send(owner, { kind: 'room.get' });
  t.deepEqual(view.access === 'member' ? view.liveOnline : undefined, [item.id]);
  t.deepEqual(await room.send(owner, { kind: 'live.authorize', mediaId: item.id }), { item, online: true });

  tb.clock.advance(DEFAULT_LIVE_STATUS_TTL_MS - 1000);
  t.deepEqual(await room.send(ingest, { kind: 'live.status', mediaId: item.id, online: true }), { online: true, changed: false });
  t.is(room.events('live').length, 1, 'a heartbeat publishes nothing');
  tb.clock.advance(DEFAULT_LIVE_STATUS_TTL_MS - 1000);
  await room.fire('live');
  t.is(room.events('live').length, 1, 'refreshed in time: still on air');

  tb.clock.advance(DEFAULT_LIVE_STATUS_TTL_MS + 1);
  await room.fire('live');
  t.deepEqual(room.lastEvent('live'), { type: 'live', mediaId: item.id, online: false });
  t.false(room.hasTimer('live'));

  await room.send(ingest, { kind: 'live.status', mediaId: item.id, online: true });
  t.deepEqual(await room.send(ingest, { kind: 'live.status', mediaId: item.id, online: false }), { online: false, changed: true });
  t.deepEqual(room.lastEvent('live'), { type: 'live', mediaId: item.id, online: false });
});
