/**
 * Whether a room learns that an item's source can seek (media/seek-probe.ts,
 * actors/room/seek-check.ts), against real upstreams: Debian's nginx with Range (recorded
 * `yes`) and with Range turned off (`max_ranges 0`, which answers like `python3 -m
 * http.server`: recorded `no`); a server that never answers (`unknown` once the probe's time
 * is up, the add not held up); a loopback address the operator did not allow (refused before
 * any connection, as the media proxy refuses it: `unknown`); HLS settled by its nature.
 */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import type { MediaItem } from '../../contracts/room/model.js';
import { UpstreamSeekProbe } from '../../media/seek-probe.js';
import { builtinProviders } from '../../media/providers/builtin.js';
import { AddressPolicy } from '../../media/proxy/address-policy.js';
import { UpstreamClient } from '../../media/proxy/upstream-client.js';
import { waitFor } from '../fixtures/deadline.js';
import { startNginx, type Nginx } from '../fixtures/nginx.js';
import { RoomTestBed, logger, user, type TestRoom } from '../actors/room/fixtures.js';

let ranged: Nginx;
let whole: Nginx;
let silent: Server;
let silentUrl: string;
const clients: UpstreamClient[] = [];

/** A probe as the service builds it, with loopback allowed (or not). */
function probeWith(allowLoopback: boolean, timeoutMs = 5000): UpstreamSeekProbe {
  const http = new UpstreamClient({ policy: new AddressPolicy(allowLoopback ? ['127.0.0.0/8'] : []), headersTimeoutMs: 10_000, idleTimeoutMs: 10_000, maxRedirects: 3 });
  clients.push(http);
  return new UpstreamSeekProbe({ providers: builtinProviders(http), http, logger, timeoutMs });
}

let bed: RoomTestBed;
let strictBed: RoomTestBed;
let plainBed: RoomTestBed;
const owner = user('owner-seek', 'Owner');

test.before(async () => {
  const dir = await mkdtemp(join(tmpdir(), 'svc-seek-'));
  await writeFile(join(dir, 'film.mp4'), Buffer.alloc(32 * 1024 * 1024, 7));
  ranged = await startNginx({ root: dir });
  whole = await startNginx({ root: dir, ranges: false });
  // Accepts the connection and never answers.
  silent = createServer(() => undefined);
  silent.listen(0, '127.0.0.1');
  await once(silent, 'listening');
  silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/film.mp4`;
  bed = await RoomTestBed.start('seek_probe', { seekProbe: probeWith(true, 1500) });
  strictBed = await RoomTestBed.start('seek_probe_strict', { seekProbe: probeWith(false) });
  plainBed = await RoomTestBed.start('seek_probe_none');
});

test.after.always(async () => {
  silent?.closeAllConnections();
  silent?.close();
  for (const client of clients) client.close();
  await Promise.allSettled([ranged?.stop(), whole?.stop(), bed?.close(), strictBed?.close(), plainBed?.close()]);
});

async function added(room: TestRoom, url: string, provider = 'direct'): Promise<MediaItem> {
  const { item } = await room.send(owner, { kind: 'playlist.push', title: 'Film', url, provider });
  return item;
}

/** Items as the room's `edited` events showed them, in order. */
function edits(room: TestRoom): MediaItem[] {
  return room.events('playlist').flatMap((e) => (e.op === 'edited' ? [e.item] : []));
}

/** The item once its check has settled (the edited event the room publishes). */
function settled(room: TestRoom, mediaId: string, timeoutMs = 10_000): Promise<MediaItem> {
  return waitFor(
    `the seek check of ${mediaId}`,
    () => Promise.resolve(edits(room).find((item) => item.id === mediaId && item.seekable !== 'checking')),
    timeoutMs,
    20,
  );
}

test.serial('a Range-capable upstream (nginx) is recorded seekable, one ranged byte asked', async (t) => {
  const room = await bed.createRoom(owner);
  await ranged.clearRequests();
  const item = await added(room, `${ranged.url}/film.mp4`);
  t.is(item.seekable, 'checking', 'the add answers at once, with the check running');
  t.is((await settled(room, item.id)).seekable, 'yes');
  const requests = (await ranged.requests()).filter((r) => r.path === '/film.mp4');
  t.deepEqual(requests.map((r) => [r.range, r.status, r.bytesSent]), [['bytes=0-0', 206, 1]]);
  // Stored: a new activation reads it back.
  await room.deactivate();
  const again = await bed.activate(room.id);
  const view = await again.send(owner, { kind: 'room.get' });
  t.is(view.access === 'member' ? view.playlist?.[0]?.seekable : undefined, 'yes');
});

test.serial('an upstream that ignores Range (200 with the whole file) is recorded not seekable, its body not read', async (t) => {
  const room = await bed.createRoom(owner);
  await whole.clearRequests();
  const item = await added(room, `${whole.url}/film.mp4`);
  t.is((await settled(room, item.id)).seekable, 'no');
  const [request] = (await whole.requests()).filter((r) => r.path === '/film.mp4');
  t.is(request?.status, 200);
  t.true((request?.bytesSent ?? 0) < 32 * 1024 * 1024, `the probe hung up early (${request?.bytesSent} bytes sent)`);
});

test.serial('a probe with no answer gives unknown once its time is up, and the add was not held up', async (t) => {
  const room = await bed.createRoom(owner);
  const item = await added(room, silentUrl);
  t.is(item.seekable, 'checking');
  t.is((await settled(room, item.id)).seekable, 'unknown');
});

test.serial('an address the media proxy refuses (loopback, not allowed) is refused to the probe too: no connection, unknown', async (t) => {
  const room = await strictBed.createRoom(owner);
  await whole.clearRequests();
  const item = await added(room, `${whole.url}/film.mp4`);
  t.is((await settled(room, item.id)).seekable, 'unknown');
  t.deepEqual(await whole.requests(), [], 'nothing reached the loopback server');
});

test.serial('HLS is seekable by its nature, without a probe; editing the URL checks again', async (t) => {
  const room = await bed.createRoom(owner);
  await whole.clearRequests();
  const hls = await added(room, `${whole.url}/index.m3u8`, 'hls');
  t.is(hls.seekable, 'yes');
  const file = await added(room, `${ranged.url}/film.mp4`);
  t.is((await settled(room, file.id)).seekable, 'yes');
  const { item: edited } = await room.send(owner, { kind: 'playlist.edit', mediaId: file.id, url: `${whole.url}/film.mp4` });
  t.is(edited.seekable, 'checking');
  await waitFor('the re-check', () => Promise.resolve(edits(room).find((i) => i.id === file.id && i.seekable === 'no')), 10_000, 20);
  t.false((await whole.requests()).some((r) => r.path === '/index.m3u8'), 'the HLS playlist was not fetched');
});

test.serial('a room without a probe stores items as unknown', async (t) => {
  const room = await plainBed.createRoom(owner);
  const item = await added(room, `${ranged.url}/film.mp4`);
  t.is(item.seekable, 'unknown');
});
