/**
 * A guest plays what is playing (docs/2026-11-26-guests-watch.md), through a whole service: the
 * HTTP room view carries the current item without its source, the play endpoint answers the
 * current item's sources (a proxy link) and refuses any other item, and the proxy link of an
 * item that stopped being current stops working for the guest.
 */
import test from 'ava';
import { startNginx, type Nginx } from '../fixtures/nginx.js';
import type { GatewayBed, Member } from '../gateways/bed.js';
import { addItem, createRoom, eventually, join, proxiedUrl, randomFile, read, startMediaBed } from './media-bed.js';

let bed: GatewayBed;
let owner: Member;
let upstream: Nginx;

test.before(async () => {
  const file = await randomFile('movie.mp4', 256 * 1024);
  upstream = await startNginx({ root: file.dir });
  bed = await startMediaBed('guest-play');
  owner = await bed.signUp('owner');
});
test.after.always(async () => {
  await bed?.close();
  await upstream?.stop();
});

async function setCurrent(roomId: string, mediaId: string): Promise<void> {
  const answer = await bed.call('PUT', `/api/rooms/${roomId}/playlist/current`, { mediaId }, owner.token);
  if (answer.status !== 200) throw new Error(`set current failed: ${answer.status} ${JSON.stringify(answer.body)}`);
}

interface View {
  access: string;
  playlist?: unknown[];
  members?: Array<{ userId: string }>;
  playback: { mediaId: string | null; item: Record<string, unknown> | null };
  me: { permissions: string[] };
}

test('a guest gets the current item and its play info, never another item\'s; the old link ends when the item changes', async (t) => {
  const roomId = await createRoom(bed, owner);
  const a = await addItem(bed, roomId, owner, { title: 'A', url: `${upstream.url}/movie.mp4`, proxy: true, headers: { 'X-Upstream-Token': 'secret' } });
  const b = await addItem(bed, roomId, owner, { title: 'B', url: `${upstream.url}/movie.mp4`, proxy: true });
  await setCurrent(roomId, a);
  const gus = await bed.guest('Gus');
  await join(bed, roomId, gus);

  const view = await bed.call<View>('GET', `/api/rooms/${roomId}`, undefined, gus.token);
  t.is(view.status, 200);
  t.is(view.body.access, 'member');
  t.false('playlist' in view.body);
  t.like(view.body.playback.item, { id: a, title: 'A', provider: 'direct', live: false, subtitles: [] });
  // What is playing, never where it comes from (the upstream address and its headers).
  t.deepEqual(Object.keys(view.body.playback.item ?? {}).sort(), ['id', 'live', 'provider', 'reachHow', 'seekable', 'subtitles', 'title']);
  t.deepEqual(view.body.me.permissions, ['view_chat_history', 'view_member_list']);
  t.deepEqual(view.body.members?.map((m) => m.userId).sort(), [owner.userId, gus.userId].sort());
  t.is((await bed.call('GET', `/api/rooms/${roomId}/chat`, undefined, gus.token)).status, 200, 'a guest reads the chat');

  const link = await proxiedUrl(bed, roomId, a, gus);
  t.is((await read(link, { range: 'bytes=0-9' })).status, 206);

  for (const mediaId of [b, 'not-an-item']) {
    const refused = await bed.call<{ code: string; message: string }>('GET', `/api/rooms/${roomId}/playlist/${mediaId}/play`, undefined, gus.token);
    t.is(refused.status, 403, mediaId);
    t.regex(refused.body.message, /view_media_resources/);
  }

  await setCurrent(roomId, b);
  const next = await proxiedUrl(bed, roomId, b, gus);
  t.is((await read(next, { range: 'bytes=0-9' })).status, 206);
  // The proxy remembers a member's answer for up to 30 s: the link for A stops within that.
  t.true(await eventually(async () => (await read(link, { range: 'bytes=0-9' })).status === 403, 45_000), 'the previous item\'s link is refused');
  const refused = await bed.call('GET', `/api/rooms/${roomId}/playlist/${a}/play`, undefined, gus.token);
  t.is(refused.status, 403);
});
