/**
 * The media proxy route with the slice cache on, as players use it: slice-sized ranges read
 * one after the other (answered from pooled buffers the route gives back once sent), a range
 * over several slices and the whole file (written piece by piece), a client leaving in the
 * middle of a long read, and reads after it all still byte for byte.
 */
import { request } from 'node:http';
import test from 'ava';
import { startNginx, type Nginx } from '../fixtures/nginx.js';
import type { GatewayBed, Member } from '../gateways/bed.js';
import { addItem, createRoom, proxiedUrl, randomFile, read, startMediaBed } from './media-bed.js';

const MiB = 1024 * 1024;
const SLICE = 2 * MiB;
const SIZE = 7 * MiB + 4321;

let bed: GatewayBed;
let nginx: Nginx;
let owner: Member;
let bytes: Buffer;
let url: string;

test.before(async () => {
  const file = await randomFile('film.mp4', SIZE);
  bytes = file.bytes;
  nginx = await startNginx({ root: file.dir });
  bed = await startMediaBed('media-proxy-cache', { SVC_PROXY_SLICE_CACHE_ENABLED: 'true', SVC_PROXY_SLICE_CACHE_SIZE_MB: '64' });
  owner = await bed.signUp('owner');
  const roomId = await createRoom(bed, owner);
  const mediaId = await addItem(bed, roomId, owner, { url: `${nginx.url}/film.mp4`, proxy: true });
  url = await proxiedUrl(bed, roomId, mediaId, owner);
});
test.after.always(async () => {
  await bed?.close();
  await nginx?.stop();
});

test('slice-sized ranges read in sequence, twice, are byte-exact on misses and on hits', async (t) => {
  for (let pass = 0; pass < 2; pass++) {
    for (let start = 0; start < SIZE; start += SLICE) {
      const end = Math.min(SIZE, start + SLICE) - 1;
      const answer = await read(url, { range: `bytes=${start}-${end}` });
      t.is(answer.status, 206);
      t.is(answer.headers.get('content-range'), `bytes ${start}-${end}/${SIZE}`);
      t.true(answer.body.equals(bytes.subarray(start, end + 1)), `pass ${pass}, bytes ${start}-${end}`);
    }
  }
});

test('a range over several slices and the whole file are written piece by piece, byte-exact', async (t) => {
  const spanning = await read(url, { range: `bytes=${SLICE - 10}-${3 * SLICE + 9}` });
  t.is(spanning.status, 206);
  t.is(spanning.headers.get('content-length'), String(2 * SLICE + 20));
  t.true(spanning.body.equals(bytes.subarray(SLICE - 10, 3 * SLICE + 10)));
  const open = await read(url, { range: 'bytes=1000-' });
  t.is(open.status, 206);
  t.true(open.body.equals(bytes.subarray(1000)));
  const whole = await read(url);
  t.is(whole.status, 200);
  t.is(whole.headers.get('content-length'), String(SIZE));
  t.true(whole.body.equals(bytes));
});

test('an upstream failing before the first byte of a long answer is a 502 error body, not a hang', async (t) => {
  const file = await randomFile('gone.mp4', SIZE);
  const upstream = await startNginx({ root: file.dir });
  const roomId = await createRoom(bed, owner);
  const mediaId = await addItem(bed, roomId, owner, { url: `${upstream.url}/gone.mp4`, proxy: true });
  const link = await proxiedUrl(bed, roomId, mediaId, owner);
  try {
    // Slice 0 and the size are cached; slice 1 and later are not.
    t.true((await read(link, { range: 'bytes=0-99' })).body.equals(file.bytes.subarray(0, 100)));
  } finally {
    await upstream.stop();
  }
  const answer = await read(link, { range: `bytes=${SLICE}-` });
  t.is(answer.status, 502);
  const body = JSON.parse(answer.body.toString('utf8')) as { code: string; message: string };
  t.is(body.code, 'bad_gateway');
  t.regex(body.message, /upstream/);
});

test('a client leaving in the middle of a long read does not disturb the reads after it', async (t) => {
  const left = await new Promise<number>((resolve) => {
    const req = request(url, { headers: { range: 'bytes=0-' } }, (res) => {
      let received = 0;
      res.on('data', (chunk: Buffer) => {
        received += chunk.length;
        // Gone after a little more than one slice: the rest is never asked for.
        if (received > SLICE + 1) req.destroy();
      });
      res.once('close', () => resolve(received));
    });
    // Destroying the request is how this client leaves; its error is expected.
    req.once('error', () => undefined);
    req.end();
  });
  t.true(left > SLICE && left < SIZE);
  for (let start = 0; start < SIZE; start += SLICE) {
    const end = Math.min(SIZE, start + SLICE) - 1;
    const answer = await read(url, { range: `bytes=${start}-${end}` });
    t.true(answer.body.equals(bytes.subarray(start, end + 1)), `bytes ${start}-${end}`);
  }
  const whole = await read(url);
  t.true(whole.body.equals(bytes));
});

test('what was read with an item\'s credentials is cached for reads with them only: the same URL added without the header is asked of the upstream, which refuses', async (t) => {
  const file = await randomFile('private.mp4', 3 * SLICE);
  const upstream = await startNginx({
    root: file.dir,
    serverConfig: 'location / { if ($http_x_token != "secret") { return 403; } }',
  });
  t.teardown(() => upstream.stop());
  const fileUrl = `${upstream.url}/private.mp4`;
  const protectedRoom = await createRoom(bed, owner);
  const protectedItem = await addItem(bed, protectedRoom, owner, { url: fileUrl, proxy: true, headers: { 'X-Token': 'secret' } });
  const protectedLink = await proxiedUrl(bed, protectedRoom, protectedItem, owner);
  const first = await read(protectedLink, { range: `bytes=0-${SLICE - 1}` });
  t.is(first.status, 206);
  t.true(first.body.equals(file.bytes.subarray(0, SLICE)));

  // Someone who saw the URL (not the token) plays it in a room of their own.
  const stranger = await bed.signUp('stranger');
  const ownRoom = await createRoom(bed, stranger);
  const copy = await addItem(bed, ownRoom, stranger, { url: fileUrl, proxy: true });
  const copyLink = await proxiedUrl(bed, ownRoom, copy, stranger);
  await upstream.clearRequests();
  const refused = await read(copyLink, { range: `bytes=0-${SLICE - 1}` });
  t.is(refused.status, 502, 'the upstream refused the read without the header: nothing came from the cache');
  t.false(refused.body.includes(file.bytes.subarray(0, 64)));
  t.true((await upstream.requests()).some((request) => request.status === 403));

  // The item with the header still reads from the cache it filled.
  await upstream.clearRequests();
  t.true((await read(protectedLink, { range: `bytes=0-${SLICE - 1}` })).body.equals(file.bytes.subarray(0, SLICE)));
  t.deepEqual(await upstream.requests(), []);
});
