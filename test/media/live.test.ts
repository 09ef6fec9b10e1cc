/**
 * Livestreams end to end (issue 12, section 3): stream keys and who may see them, ffmpeg
 * publishing over RTMP to one replica, the room's live/offline events, HTTP-FLV and HLS read
 * by ffprobe from the publisher's replica and from a second replica (forwarded), wrong and
 * rotated keys refused, segments disguised as PNG, and the playback refusals (403/404),
 * membership among them.
 */
import { createRequire } from 'node:module';
import test from 'ava';
import pg from 'pg';
import type { MemberRoomView } from '../../contracts/room/model.js';
import { liveProvider } from '../../media/providers/live.js';
import { startGatewayBed, type GatewayBed, type Member } from '../gateways/bed.js';
import { callerOf, createRoom, open, roomsOf, type Rooms } from '../gateways/ws/fixtures.js';
import { waitFor, withDeadline } from '../fixtures/deadline.js';
import { ffprobe, firstBytes, liveLink, openFlv, publish, type OpenFlv } from './live-fixtures.js';

// node-media-server's own AMF0 decoder reads the script tag as the relay wrote it.
const { decodeAmf0Data } = createRequire(import.meta.url)('node-media-server/src/protocol/amf.js') as { decodeAmf0Data(this: void, data: Buffer): unknown };

interface StreamKey {
  mediaId: string;
  url: string;
  server: string;
  streamKey: string;
  online: boolean;
}

let a: GatewayBed;
let b: GatewayBed;
let rooms: Rooms;

test.before(async () => {
  a = await startGatewayBed('live', { env: { SVC_REPLICA_ID: 'live-a' } });
  // The second replica shares the database, NATS prefix and secrets (one deployment); rooms
  // live on the first one's actor host, so this one only serves.
  b = await startGatewayBed('live', { databaseUrl: a.databaseUrl, roles: ['gateway'], env: { SVC_REPLICA_ID: 'live-b' } });
  rooms = await roomsOf(a);
});

test.after.always(async () => {
  await rooms?.close();
  await b?.close();
  await a?.close();
});

async function liveRoom(owner: Member): Promise<{ roomId: string; mediaId: string }> {
  const room = await createRoom(rooms, owner);
  const added = await a.call<{ item: { id: string; url: string; live: boolean } }>('POST', `/api/rooms/${room.id}/playlist`, { title: 'On air', provider: 'live' }, owner.token);
  if (added.status !== 201) throw new Error(`adding a live item failed: ${JSON.stringify(added.body)}`);
  return { roomId: room.id, mediaId: added.body.item.id };
}

async function streamKey(roomId: string, mediaId: string, member: Member, method = 'GET'): Promise<StreamKey> {
  const answer = await a.call<StreamKey>(method, `/api/rooms/${roomId}/playlist/${mediaId}/stream-key`, undefined, member.token);
  if (answer.status !== 200) throw new Error(`stream key: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
}

async function liveOnline(roomId: string, member: Member): Promise<string[]> {
  const { result } = await rooms.client.send(roomId, { kind: 'room.get' }, callerOf(member));
  return (result as MemberRoomView).liveOnline ?? [];
}

test.serial('a live item needs no URL; only publish_livestream sees or rotates its key; keys are per item', async (t) => {
  const owner = await a.signUp('owner');
  const member = await a.signUp('member');
  const { roomId, mediaId } = await liveRoom(owner);
  await rooms.client.send(roomId, { kind: 'member.join' }, callerOf(member));

  const playlist = await a.call<{ items: Array<{ id: string; url: string; live: boolean; provider: string }> }>('GET', `/api/rooms/${roomId}/playlist`, undefined, owner.token);
  t.like(playlist.body.items[0], { id: mediaId, url: `live:${mediaId}`, live: true, provider: 'live' });

  for (const method of ['GET', 'POST']) {
    const refused = await a.call<{ code: string; message: string }>(method, `/api/rooms/${roomId}/playlist/${mediaId}/stream-key`, undefined, member.token);
    t.is(refused.status, 403, method);
    t.regex(refused.body.message, /publish_livestream/);
  }

  const key = await streamKey(roomId, mediaId, owner);
  t.regex(key.streamKey, /^sk_[A-Za-z0-9_-]{32}$/);
  t.is(key.server, `rtmp://127.0.0.1:${a.config.rtmp.port}/live`);
  t.is(key.url, `${key.server}/${key.streamKey}`);
  t.is((await streamKey(roomId, mediaId, owner)).streamKey, key.streamKey, 'reading again shows the same key');

  await a.set('rtmp', { customPublishHost: 'live.example.com:1936' });
  try {
    t.is((await streamKey(roomId, mediaId, owner)).server, 'rtmp://live.example.com:1936/live');
  } finally {
    await a.set('rtmp', { customPublishHost: '' });
  }

  const other = await a.call<{ item: { id: string } }>('POST', `/api/rooms/${roomId}/playlist`, { title: 'Second', provider: 'live' }, owner.token);
  t.not((await streamKey(roomId, other.body.item.id, owner)).streamKey, key.streamKey);

  const file = await a.call<{ item: { id: string } }>('POST', `/api/rooms/${roomId}/playlist`, { title: 'File', url: 'https://example.com/a.mp4' }, owner.token);
  const notLive = await a.call('GET', `/api/rooms/${roomId}/playlist/${file.body.item.id}/stream-key`, undefined, owner.token);
  t.is(notLive.status, 400);
  const noUrl = await a.call<{ issues: Array<{ key: string }> }>('POST', `/api/rooms/${roomId}/playlist`, { title: 'File' }, owner.token);
  t.is(noUrl.status, 400);
  t.is(noUrl.body.issues[0]?.key, 'url');
});

test.serial('a publish goes live in the room, plays as FLV and HLS on both replicas, and goes offline when it stops', async (t) => {
  const owner = await a.signUp('publisher');
  const { roomId, mediaId } = await liveRoom(owner);
  const key = await streamKey(roomId, mediaId, owner);
  // The member watches through the other replica.
  const socket = await open(b, roomId, owner);
  const link = liveLink(a, { roomId, userId: owner.userId, sessionId: owner.sessionId, mediaId });

  const offlineFirst = await a.call<{ code: string; message: string }>('GET', `${link}/stream.flv`);
  t.is(offlineFirst.status, 404);
  t.is(offlineFirst.body.code, 'not_found');
  t.regex(offlineFirst.body.message, /offline/);

  const publisher = publish(key.url);
  try {
    const online = await socket.waitForEvent((m) => m.event.type === 'live', 15_000);
    t.deepEqual(online.event, { type: 'live', mediaId, online: true });
    t.deepEqual(await liveOnline(roomId, owner), [mediaId]);

    const flvHead = await firstBytes(`${a.url}${link}/stream.flv`, 3);
    t.is(flvHead.status, 200);
    t.is(flvHead.type, 'video/x-flv');
    t.is(flvHead.bytes.subarray(0, 3).toString('latin1'), 'FLV');

    for (const [name, bed] of [['publisher', a], ['other replica', b]] as const) {
      const flv = await ffprobe(`${bed.url}${link}/stream.flv`);
      t.deepEqual(flv.codecs, { video: 'h264', audio: 'aac' }, `FLV from the ${name} (ffprobe exit ${flv.code}): ${flv.stderr}`);
      // A probe of a live playlist without a segment yet waits for one; under load, past its limit.
      await waitFor(`a segment in the HLS playlist from the ${name}`, async () => /^seg\d+\.ts$/m.test(await (await fetch(`${bed.url}${link}/index.m3u8`)).text()) || undefined, 20_000);
      const hls = await ffprobe(`${bed.url}${link}/index.m3u8`);
      t.deepEqual(hls.codecs, { video: 'h264', audio: 'aac' }, `HLS from the ${name} (ffprobe exit ${hls.code}): ${hls.stderr}`);
    }
    const playlist = await fetch(`${b.url}${link}/index.m3u8`);
    t.is(playlist.headers.get('content-type'), 'application/vnd.apple.mpegurl');
    const text = await playlist.text();
    t.regex(text, /^#EXTM3U/);
    const segment = /^(seg\d+\.ts)$/m.exec(text)?.[1];
    t.truthy(segment);
    const bytes = await fetch(`${b.url}${link}/${segment}`);
    t.is(bytes.status, 200);
    t.is(bytes.headers.get('content-type'), 'video/mp2t');
    t.is(Buffer.from(await bytes.arrayBuffer())[0], 0x47, 'an MPEG-TS sync byte');
  } finally {
    await publisher.stop();
  }
  const offline = await socket.waitForEvent((m) => m.event.type === 'live' && (m.event as { online: boolean }).online === false, 15_000);
  t.deepEqual(offline.event, { type: 'live', mediaId, online: false });
  t.deepEqual(await liveOnline(roomId, owner), []);
  for (const bed of [a, b]) {
    const gone = await waitFor('the stream to be gone', async () => {
      const answer = await bed.call<{ code: string }>('GET', `${link}/index.m3u8`);
      return answer.status === 404 ? answer : undefined;
    });
    t.is(gone.body.code, 'not_found');
  }
  await socket.close();
});

/** The FLV tags at the start of `bytes` (after the 9-byte header): type and payload. */
function flvTags(bytes: Buffer): Array<{ type: number; payload: Buffer }> {
  const tags: Array<{ type: number; payload: Buffer }> = [];
  let offset = bytes.readUInt32BE(5) + 4;
  while (offset + 11 <= bytes.length) {
    const size = bytes.readUIntBE(offset + 1, 3);
    if (offset + 11 + size > bytes.length) break;
    tags.push({ type: bytes[offset] as number, payload: bytes.subarray(offset + 11, offset + 11 + size) });
    offset += 11 + size + 4;
  }
  return tags;
}

test.serial('a publish whose key is checked slowly keeps what it sent meanwhile whole: the FLV starts with readable metadata and sequence headers', async (t) => {
  const owner = await a.signUp('slowcheck');
  const { roomId, mediaId } = await liveRoom(owner);
  const key = await streamKey(roomId, mediaId, owner);
  const link = liveLink(a, { roomId, userId: owner.userId, sessionId: owner.sessionId, mediaId });
  const socket = await open(a, roomId, owner);

  // The key lookup waits on a lock while ffmpeg sends its metadata, sequence headers and two
  // seconds of frames, which the ingest holds until the key is known.
  const locker = new pg.Client({ connectionString: a.databaseUrl });
  await locker.connect();
  t.teardown(() => locker.end());
  await locker.query('BEGIN');
  await locker.query('LOCK TABLE live_stream_keys IN ACCESS EXCLUSIVE MODE');
  const publisher = publish(key.url);
  try {
    const observer = new pg.Client({ connectionString: a.databaseUrl });
    await observer.connect();
    t.teardown(() => observer.end());
    await waitFor('the key lookup waiting on the lock', async () => {
      const { rows } = await observer.query(
        "SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query ILIKE '%FROM live_stream_keys%'",
      );
      return rows.length > 0 ? true : undefined;
    });
    await publisher.sent(2);
    await locker.query('COMMIT');
    await socket.waitForEvent((m) => m.event.type === 'live', 15_000);

    const { status, bytes } = await firstBytes(`${a.url}${link}/stream.flv`, 64 * 1024);
    t.is(status, 200);
    const [metadata, ...headers] = flvTags(bytes);
    t.is(metadata?.type, 18, 'a script tag first');
    const decoded = decodeAmf0Data(metadata?.payload ?? Buffer.alloc(0)) as { cmd?: string; dataObj?: { width?: number; height?: number } };
    t.true(decoded.cmd === '@setDataFrame' || decoded.cmd === 'onMetaData', `the script tag is the stream's metadata, not ${JSON.stringify(decoded.cmd)}`);
    t.like(decoded.dataObj, { width: 320, height: 240 });
    const audio = headers.find((tag) => tag.type === 8);
    const video = headers.find((tag) => tag.type === 9);
    // AAC sequence header (0xAF 0x00) and AVC sequence header (keyframe 0x17, packet type 0, then
    // an AVCDecoderConfigurationRecord, version 1, of the stream's Baseline profile).
    t.deepEqual([...(audio?.payload.subarray(0, 2) ?? [])], [0xaf, 0x00]);
    t.deepEqual([...(video?.payload.subarray(0, 2) ?? [])], [0x17, 0x00]);
    t.is(video?.payload[5], 1, 'an AVC configuration record');
  } finally {
    await locker.query('ROLLBACK').catch(() => undefined);
    await publisher.stop();
    await socket.close();
  }
});

test.serial('a wrong key is refused without a room event; rotating the key ends the publish and refuses the old key', async (t) => {
  const owner = await a.signUp('rotator');
  const { roomId, mediaId } = await liveRoom(owner);
  const key = await streamKey(roomId, mediaId, owner);
  const socket = await open(a, roomId, owner);

  const wrong = publish(`${key.server}/sk_${'x'.repeat(32)}`);
  const refused = await wrong.exited;
  t.not(refused.code, 0, 'ffmpeg fails with a wrong key');
  t.deepEqual(await liveOnline(roomId, owner), []);
  t.false(socket.events.some((m) => m.event.type === 'live'));

  const publisher = publish(key.url);
  try {
    await socket.waitForEvent((m) => m.event.type === 'live', 15_000);
    const rotated = await streamKey(roomId, mediaId, owner, 'POST');
    t.not(rotated.streamKey, key.streamKey);
    t.false(rotated.online);
    const offline = await socket.waitForEvent((m) => m.event.type === 'live' && (m.event as { online: boolean }).online === false, 15_000);
    t.is((offline.event as { mediaId: string }).mediaId, mediaId);
    const ended = await publisher.exited;
    t.not(ended.code, 0, 'the publish with the rotated key was cut');
  } finally {
    await publisher.stop();
  }
  const stale = publish(key.url);
  t.not((await stale.exited).code, 0, 'the old key no longer publishes');
  await socket.close();
});

test.serial('rtmp.tsDisguisedAsPng names segments .png, serves them as image/png, and ffprobe still reads the stream', async (t) => {
  const owner = await a.signUp('png');
  const { roomId, mediaId } = await liveRoom(owner);
  const key = await streamKey(roomId, mediaId, owner);
  const link = liveLink(a, { roomId, userId: owner.userId, sessionId: owner.sessionId, mediaId });
  await a.set('rtmp', { tsDisguisedAsPng: true });
  const publisher = publish(key.url);
  try {
    const text = await waitFor('a playlist with segments', async () => {
      const answer = await fetch(`${a.url}${link}/index.m3u8`);
      const body = await answer.text();
      return answer.status === 200 && /\.png$/m.test(body) ? body : undefined;
    });
    t.notRegex(text, /\.ts$/m);
    const segment = /^(seg\d+\.png)$/m.exec(text)?.[1] ?? '';
    for (const bed of [a, b]) {
      const answer = await fetch(`${bed.url}${link}/${segment}`);
      t.is(answer.status, 200);
      t.is(answer.headers.get('content-type'), 'image/png');
      t.is(Buffer.from(await answer.arrayBuffer())[0], 0x47, 'the bytes are still MPEG-TS');
    }
    // ffmpeg's HLS demuxer refuses segment names outside allowed_segment_extensions (newer
    // builds, and Debian's 5.1 security update) unless it is told not to be picky.
    const probe = await ffprobe(`${a.url}${link}/index.m3u8`, ['-extension_picky', '0']);
    t.deepEqual(probe.codecs, { video: 'h264', audio: 'aac' }, probe.stderr);
  } finally {
    await publisher.stop();
    await a.set('rtmp', { tsDisguisedAsPng: false });
  }
});

test.serial('playback refusals: proxy.liveProxy off is 403, a link for another item, expired, or held by a non-member or a kicked member is 403, offline is 404', async (t) => {
  const owner = await a.signUp('refusals');
  const { roomId, mediaId } = await liveRoom(owner);
  const link = liveLink(a, { roomId, userId: owner.userId, sessionId: owner.sessionId, mediaId });

  await a.set('proxy', { liveProxy: false });
  try {
    const off = await a.call<{ code: string; message: string }>('GET', `${link}/stream.flv`);
    t.is(off.status, 403);
    t.regex(off.body.message, /proxy\.liveProxy/);
  } finally {
    await a.set('proxy', { liveProxy: true });
  }
  const otherResource = liveLink(a, { roomId, userId: owner.userId, sessionId: owner.sessionId, mediaId, resource: 'https://example.com/x' });
  t.is((await a.call('GET', `${otherResource}/stream.flv`)).status, 403);
  const expired = liveLink(a, { roomId, userId: owner.userId, sessionId: owner.sessionId, mediaId, expiresAt: Date.now() - 1000 });
  t.is((await a.call('GET', `${expired}/stream.flv`)).status, 403);
  // A link for the item is signed for it alone: rewriting the token's item breaks the seal.
  const [, token = ''] = /\/media\/live\/([^/]+)/.exec(link) ?? [];
  const forged = `/media/live/${Buffer.from(Buffer.from(token.split('.')[0] ?? '', 'base64url').toString().replace(mediaId, 'other-item')).toString('base64url')}.${token.split('.')[1] ?? ''}`;
  t.is((await a.call('GET', `${forged}/stream.flv`)).status, 403);
  // A well-signed link outlives its holder's membership; the room is asked, on either replica.
  const stranger = await a.signUp('refusals-stranger');
  const strangers = await b.call<{ code: string }>('GET', `${liveLink(a, { roomId, userId: stranger.userId, sessionId: stranger.sessionId, mediaId })}/index.m3u8`);
  t.is(strangers.status, 403);
  t.is(strangers.body.code, 'forbidden');
  const viewer = await a.signUp('refusals-viewer');
  t.is((await a.call('POST', `/api/rooms/${roomId}/join`, {}, viewer.token)).status, 200);
  const viewerLink = liveLink(a, { roomId, userId: viewer.userId, sessionId: viewer.sessionId, mediaId });
  t.is((await a.call('GET', `${viewerLink}/index.m3u8`)).status, 404, 'a member\'s link reaches the (offline) stream');
  t.is((await a.call('POST', `/api/rooms/${roomId}/members/${viewer.userId}/kick`, undefined, owner.token)).status, 200);
  // Replica b has not asked about this member before, so it learns of the kick at once.
  t.is((await b.call('GET', `${viewerLink}/stream.flv`)).status, 403);
  const offline = await b.call<{ code: string }>('GET', `${link}/index.m3u8`);
  t.is(offline.status, 404);
  t.is(offline.body.code, 'not_found');
});

test.serial('an open FLV connection is cut when its holder is kicked or signs out, on the publisher replica and the other', async (t) => {
  const owner = await a.signUp('cut-owner');
  const [kicked, leaver] = await Promise.all([a.signUp('cut-kicked'), a.signUp('cut-leaver')]);
  const { roomId, mediaId } = await liveRoom(owner);
  for (const member of [kicked, leaver]) t.is((await a.call('POST', `/api/rooms/${roomId}/join`, {}, member.token)).status, 200);
  const key = await streamKey(roomId, mediaId, owner);
  const socket = await open(a, roomId, owner);
  const publisher = publish(key.url);
  const flvs: OpenFlv[] = [];
  try {
    await socket.waitForEvent((m) => m.event.type === 'live', 15_000);
    const flvOf = async (bed: GatewayBed, member: Member): Promise<OpenFlv> => {
      const flv = await openFlv(`${bed.url}${liveLink(a, { roomId, userId: member.userId, sessionId: member.sessionId, mediaId })}/stream.flv`);
      flvs.push(flv);
      t.is(flv.status, 200);
      return flv;
    };
    // Publisher replica (served from the ingest) and the other one (forwarded).
    const kickedFlv = await flvOf(a, kicked);
    const leaverFlv = await flvOf(b, leaver);

    t.is((await a.call('POST', `/api/rooms/${roomId}/members/${kicked.userId}/kick`, undefined, owner.token)).status, 200);
    await withDeadline(kickedFlv.ended, 15_000, 'the kicked member\'s FLV to be cut');
    t.is((await a.call('POST', '/api/auth/logout', undefined, leaver.token)).status, 204);
    await withDeadline(leaverFlv.ended, 15_000, 'the signed-out member\'s FLV to be cut');

    // The owner's link plays on.
    const ownerHead = await firstBytes(`${b.url}${liveLink(a, { roomId, userId: owner.userId, sessionId: owner.sessionId, mediaId })}/stream.flv`, 3);
    t.is(ownerHead.status, 200);
    // And a new read of the kicked member's link is refused.
    const again = await a.call('GET', `${liveLink(a, { roomId, userId: kicked.userId, sessionId: kicked.sessionId, mediaId })}/stream.flv`);
    t.is(again.status, 403);
  } finally {
    for (const flv of flvs) flv.close();
    await publisher.stop();
    await socket.close();
  }
});

test.serial('a co-host who is demoted, kicked or banned loses their stream key: the running publish is cut and a new one refused', async (t) => {
  const owner = await a.signUp('cohost-owner');
  const admin = await a.admin('cohost-admin');
  /** A room of `owner` with a live item, and a co-host (room admin) holding a key of their own. */
  const coHost = async (prefix: string) => {
    const member = await a.signUp(prefix);
    const { roomId, mediaId } = await liveRoom(owner);
    t.is((await a.call('POST', `/api/rooms/${roomId}/join`, {}, member.token)).status, 200);
    t.is((await a.call('PUT', `/api/rooms/${roomId}/members/${member.userId}/role`, { role: 'admin' }, owner.token)).status, 200);
    const key = await streamKey(roomId, mediaId, member);
    t.not(key.streamKey, (await streamKey(roomId, mediaId, owner)).streamKey, 'each publisher has a key of their own');
    return { member, roomId, mediaId, key, socket: await open(a, roomId, owner) };
  };
  const demoted = await coHost('cohost-demoted');
  const kicked = await coHost('cohost-kicked');
  const banned = await coHost('cohost-banned');
  const losses: Array<[typeof demoted, () => Promise<number>]> = [
    [demoted, async () => (await a.call('PUT', `/api/rooms/${demoted.roomId}/members/${demoted.member.userId}/role`, { role: 'member' }, owner.token)).status],
    [kicked, async () => (await a.call('POST', `/api/rooms/${kicked.roomId}/members/${kicked.member.userId}/kick`, undefined, owner.token)).status],
    [banned, async () => (await a.call('POST', `/api/admin/users/${banned.member.userId}/ban`, {}, admin.token)).status],
  ];
  const publishers = losses.map(([host]) => publish(host.key.url));
  try {
    for (const [host, lose] of losses) {
      await host.socket.waitForEvent((m) => m.event.type === 'live', 15_000);
      t.is(await lose(), 200);
    }
    for (const [index, [host]] of losses.entries()) {
      const ended = await withDeadline(publishers[index]!.exited, 20_000, `the publish of ${host.member.username} to be cut`);
      t.not(ended.code, 0, `${host.member.username}: ffmpeg was cut`);
      await host.socket.waitForEvent((m) => m.event.type === 'live' && (m.event as { online: boolean }).online === false, 15_000);
    }
    for (const [host] of losses) {
      const again = publish(host.key.url);
      publishers.push(again);
      t.not((await withDeadline(again.exited, 20_000, 'a refused publish to end')).code, 0, `${host.member.username}: the key no longer publishes`);
      t.deepEqual(await liveOnline(host.roomId, owner), []);
    }
  } finally {
    await Promise.all(publishers.map((p) => p.stop()));
    for (const [host] of losses) await host.socket.close();
  }
});

test('the live provider plays through signed /media/live URLs, FLV first', async (t) => {
  const info = await liveProvider.play!(
    { id: 'm1', title: 'x', url: 'live:m1', provider: 'live', headers: {}, subtitles: [], live: true, proxy: false, seekable: 'no', reach: null, addedBy: 'u', addedAt: 0, folderId: null },
    { roomId: 'r', userId: 'u', grant: (resource) => ({ token: `tok-${resource}`, expiresAt: 42 }) },
  );
  t.deepEqual(info, {
    sources: [
      { type: 'flv', url: '/media/live/tok-live/stream.flv' },
      { type: 'hls', url: '/media/live/tok-live/index.m3u8' },
    ],
    subtitles: [],
    live: true,
    proxied: false,
    expiresAt: 42,
  });
  t.is(liveProvider.proxy, 'never');
});
