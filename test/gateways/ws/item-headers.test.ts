/**
 * An item's header values over the realtime socket (and so gRPC WatchRoom, which shares the
 * watch): the snapshot, a resumed watch's missed events and live `playlist` events show them to
 * those who may edit the item only; other members get the names with empty values. HTTP's room
 * view is the actor's, withheld the same way.
 */
import test from 'ava';
import { startGatewayBed, type GatewayBed } from '../bed.js';
import { callerOf, createRoom, open, roomsOf, type Rooms } from './fixtures.js';
import type { MediaItem } from '../../../contracts/room/model.js';

let bed: GatewayBed;
let rooms: Rooms;

test.before(async () => {
  bed = await startGatewayBed('ws_item_headers');
  rooms = await roomsOf(bed);
});
test.after.always(async () => {
  await rooms?.close();
  await bed?.close();
});

const SECRET = { Authorization: 'Bearer alist-token-9876', 'X-Emby-Token': 'emby-secret' };
const WITHHELD = { Authorization: '', 'X-Emby-Token': '' };

test('header values reach only those who may edit the item, in the snapshot, in live and in missed events, and in the HTTP view', async (t) => {
  const owner = await bed.signUp('hdr_owner');
  const member = await bed.signUp('hdr_member');
  const room = await createRoom(rooms, owner, [member]);
  const push = (title: string) =>
    rooms.client.send(room.id, { kind: 'playlist.push', title, url: `https://media.example.com/${title}.mp4`, headers: SECRET }, callerOf(owner));
  const first = (await push('one')).result.item;

  const ownerSocket = await open(bed, room.id, owner);
  const memberSocket = await open(bed, room.id, member);
  try {
    const itemIn = (view: { playlist?: ReadonlyArray<{ id: string; headers: Record<string, string> }> | undefined } | undefined, id: string) =>
      view?.playlist?.find((item) => item.id === id);
    t.deepEqual(itemIn(memberSocket.snapshot?.view, first.id)?.headers, WITHHELD, 'the member\'s snapshot');
    t.deepEqual(itemIn(ownerSocket.snapshot?.view, first.id)?.headers, SECRET, 'the owner\'s snapshot');

    const second = (await push('two')).result.item;
    const added = (m: { event: { type: string; op?: string; item?: MediaItem } }) => m.event.type === 'playlist' && m.event.op === 'added' && m.event.item?.id === second.id;
    const toMember = await memberSocket.waitForEvent(added);
    const toOwner = await ownerSocket.waitForEvent(added);
    t.deepEqual((toMember.event as { item: MediaItem }).item.headers, WITHHELD, 'a live event to the member');
    t.deepEqual((toOwner.event as { item: MediaItem }).item.headers, SECRET, 'a live event to the owner');

    const seq = memberSocket.seq;
    await memberSocket.close();
    await rooms.client.send(room.id, { kind: 'playlist.edit', mediaId: second.id, headers: { ...SECRET, Authorization: 'Bearer rotated-token' } }, callerOf(owner));
    await ownerSocket.waitForEvent((m) => m.event.type === 'playlist' && m.event.op === 'edited');
    const resumed = await open(bed, room.id, member, { resumeAfter: seq });
    try {
      t.is(resumed.start?.type, 'resumed', 'the gateway holds the missed events (the owner\'s socket keeps the room\'s feed)');
      const missed = await resumed.waitForEvent((m) => m.event.type === 'playlist' && m.event.op === 'edited');
      t.deepEqual((missed.event as { item: MediaItem }).item.headers, WITHHELD, 'a missed event of a resumed watch');
      t.false(JSON.stringify(resumed.start).includes('rotated-token'));
    } finally {
      await resumed.close();
    }
  } finally {
    await ownerSocket.close();
  }

  const httpView = await bed.call<{ playlist?: MediaItem[] }>('GET', `/api/rooms/${room.id}`, undefined, member.token);
  t.is(httpView.status, 200);
  t.deepEqual(httpView.body.playlist?.find((item) => item.id === first.id)?.headers, WITHHELD, 'HTTP');
  t.false(JSON.stringify(httpView.body).includes('alist-token'));
});
