/**
 * An item's request headers (an Alist token, a cookie) are shown only to those who may edit the
 * item: holders of edit_media_resource, and its adder while they may add media. Everyone else
 * who sees the playlist sees the header names with the values withheld (empty), in the room's
 * view (room.get and the view a connection starts with); the proxy still gets the values
 * (playlist.playable, which no client may send).
 */
import test from 'ava';
import type { Caller } from '../../../actors/runtime/actor-type.js';
import type { MediaItem } from '../../../contracts/room/model.js';
import { RoomTestBed, addMember, media, uid, user } from './fixtures.js';

let bed: RoomTestBed;

test.before(async () => {
  bed = await RoomTestBed.start('room_item_headers');
});

test.after.always(async () => {
  await bed?.close();
});

const SECRET = { Authorization: 'alist-token-0123456789', 'X-Emby-Token': 'emby-secret' };

async function playlistOf(room: Awaited<ReturnType<RoomTestBed['activate']>>, who: Caller, kind: 'room.get' | 'presence.enter' = 'room.get'): Promise<MediaItem[]> {
  const view = kind === 'room.get' ? await room.send(who, { kind }) : await room.send(who, { kind, connectionId: uid('conn') });
  if (view.access !== 'member') throw new Error(`${who.userId} is not a member`);
  return view.playlist ?? [];
}

test('header values reach editors and the adder only; other members see the names with the values withheld', async (t) => {
  const owner = user(uid('owner'), 'Owner');
  const admin = user(uid('admin'), 'Admin');
  const member = user(uid('member'), 'Member');
  const room = await bed.createRoom(owner);
  for (const who of [admin, member]) await addMember(room, who);
  await room.send(owner, { kind: 'member.setRole', userId: admin.userId, role: 'admin' });
  const { item } = await room.send(owner, { kind: 'playlist.push', ...media('Secret', { headers: SECRET }) });
  t.deepEqual(item.headers, SECRET, 'the adder gets the values back');
  const mine = (await room.send(member, { kind: 'playlist.push', ...media('Mine', { headers: { Cookie: 'session=member' } }) })).item;

  for (const kind of ['room.get', 'presence.enter'] as const) {
    const seenByMember = await playlistOf(room, member, kind);
    t.deepEqual(seenByMember.find((i) => i.id === item.id)?.headers, { Authorization: '', 'X-Emby-Token': '' }, `${kind}: a member sees the names only`);
    t.false(JSON.stringify(seenByMember).includes('alist-token'), kind);
    t.deepEqual(seenByMember.find((i) => i.id === mine.id)?.headers, { Cookie: 'session=member' }, `${kind}: their own item, which they may edit`);
    t.deepEqual((await playlistOf(room, admin, kind)).find((i) => i.id === item.id)?.headers, SECRET, `${kind}: an editor sees the values`);
  }
  // The owner sees the member's item's values too (edit_media_resource).
  t.deepEqual((await playlistOf(room, owner)).find((i) => i.id === mine.id)?.headers, { Cookie: 'session=member' });

  // A member given edit_media_resource may edit every item, so sees every value.
  await room.send(owner, { kind: 'member.setPermissions', userId: member.userId, grant: ['edit_media_resource'], deny: [] });
  t.deepEqual((await playlistOf(room, member)).find((i) => i.id === item.id)?.headers, SECRET);
  // One who may no longer add media no longer edits even their own item.
  await room.send(owner, { kind: 'member.setPermissions', userId: member.userId, grant: [], deny: ['create_media_resource'] });
  t.deepEqual((await playlistOf(room, member)).find((i) => i.id === mine.id)?.headers, { Cookie: '' });

  // The proxy's question (not open to clients) still carries the values it must send upstream.
  await room.send(owner, { kind: 'playlist.setCurrent', mediaId: item.id });
  t.deepEqual((await room.send(member, { kind: 'playlist.playable', mediaId: item.id })).item.headers, SECRET);
});
