/**
 * The media proxy through a whole service, against real upstreams: Debian nginx serving Range
 * (206) and ignoring it (200), and a node server that records the headers it receives. Covers
 * spec 4.1 (ranges byte-exact, 200 passed through with nothing cached), what goes upstream, the
 * signed grants and their re-check against membership, and the runtime switches
 * (`proxy.movieProxy`, `cors.allowedOrigins`) applying live.
 */
import { readdir } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import { MediaGrants, mediaGrantKey } from '../../media/media-grant.js';
import { startNginx, type Nginx } from '../fixtures/nginx.js';
import type { GatewayBed, Member } from '../gateways/bed.js';
import { addItem, createRoom, eventually, join, playInfo, proxiedUrl, randomFile, read, startMediaBed } from './media-bed.js';

const MiB = 1024 * 1024;
const SIZE = 5 * MiB + 12_345;

let bed: GatewayBed;
let owner: Member;
let roomId: string;
let bytes: Buffer;
let ranged: Nginx;
let whole: Nginx;
let recorder: Server;
let recorderUrl: string;
const received: IncomingHttpHeaders[] = [];
let endlessClosed: () => void = () => undefined;

test.before(async () => {
  const file = await randomFile('movie.mp4', SIZE);
  bytes = file.bytes;
  ranged = await startNginx({ root: file.dir });
  whole = await startNginx({ root: file.dir, ranges: false });
  recorder = createServer((request, response) => {
    if (request.url?.startsWith('/endless')) {
      // Streams until the reader goes away, then says so.
      response.setHeader('content-type', 'video/mp4');
      const timer = setInterval(() => response.write(bytes.subarray(0, 64 * 1024)), 20);
      response.once('close', () => {
        clearInterval(timer);
        endlessClosed();
      });
      return;
    }
    received.push(request.headers);
    response.setHeader('content-type', 'video/mp4');
    response.end(bytes.subarray(0, 1000));
  });
  await new Promise<void>((resolve) => recorder.listen(0, '127.0.0.1', resolve));
  recorderUrl = `http://127.0.0.1:${(recorder.address() as AddressInfo).port}`;
  bed = await startMediaBed('media-proxy');
  owner = await bed.signUp('owner');
  roomId = await createRoom(bed, owner);
});
test.after.always(async () => {
  await bed?.close();
  await ranged?.stop();
  await whole?.stop();
  recorder?.close();
});

test('ranged reads through the proxy are byte-exact, with Content-Range, Accept-Ranges, Content-Length and Content-Type', async (t) => {
  const mediaId = await addItem(bed, roomId, owner, { url: `${ranged.url}/movie.mp4`, proxy: true });
  const url = await proxiedUrl(bed, roomId, mediaId, owner);
  t.regex(new URL(url).pathname, /^\/media\/proxy\/[^/]+\/movie\.mp4$/);

  const cases: Array<[string, number, number]> = [
    ['bytes=0-0', 0, 0],
    [`bytes=${SIZE - 1}-${SIZE - 1}`, SIZE - 1, SIZE - 1],
    [`bytes=${2 * MiB - 100}-${4 * MiB + 100}`, 2 * MiB - 100, 4 * MiB + 100],
    ['bytes=1000-', 1000, SIZE - 1],
    ['bytes=-500', SIZE - 500, SIZE - 1],
  ];
  for (const [range, start, end] of cases) {
    const answer = await read(url, { range });
    t.is(answer.status, 206, range);
    t.is(answer.headers.get('content-range'), `bytes ${start}-${end}/${SIZE}`, range);
    t.is(answer.headers.get('content-length'), String(end - start + 1), range);
    t.is(answer.headers.get('accept-ranges'), 'bytes', range);
    t.is(answer.headers.get('content-type'), 'video/mp4', range);
    t.is(answer.headers.get('x-content-type-options'), 'nosniff');
    t.true(answer.body.equals(bytes.subarray(start, end + 1)), `${range} is byte-exact`);
  }

  const past = await read(url, { range: `bytes=${SIZE}-` });
  t.is(past.status, 416);
  t.is(past.headers.get('content-range'), `bytes */${SIZE}`);

  const head = await read(url, {}, 'HEAD');
  t.is(head.status, 200);
  t.is(head.headers.get('content-length'), String(SIZE));
  t.is(head.body.length, 0);

  const full = await read(url);
  t.is(full.status, 200);
  t.true(full.body.equals(bytes));
});

test('an upstream that ignores Range is passed through as 200, and nothing is written under data_dir', async (t) => {
  const before = await readdir(bed.config.data_dir, { recursive: true });
  const mediaId = await addItem(bed, roomId, owner, { url: `${whole.url}/movie.mp4`, proxy: true });
  const url = await proxiedUrl(bed, roomId, mediaId, owner);
  const answer = await read(url, { range: 'bytes=100-199' });
  t.is(answer.status, 200);
  t.is(answer.headers.get('content-range'), null);
  t.true(answer.body.equals(bytes));
  const requests = await whole.requests();
  t.is(requests.at(-1)?.range, 'bytes=100-199', 'the Range went upstream');
  t.deepEqual(await readdir(bed.config.data_dir, { recursive: true }), before);
});

test('only the provider headers go upstream: never the client\'s Cookie or Authorization', async (t) => {
  const mediaId = await addItem(bed, roomId, owner, {
    url: `${recorderUrl}/clip.mp4`,
    proxy: true,
    headers: { Referer: 'https://referer.example/', 'X-Upstream-Token': 'abc123' },
  });
  const url = await proxiedUrl(bed, roomId, mediaId, owner);
  received.length = 0;
  const answer = await read(url, { cookie: 'svc_session=secret', authorization: `Bearer ${owner.token}`, 'x-custom': 'client', range: 'bytes=0-99' });
  t.is(answer.status, 200);
  const [headers] = received;
  t.truthy(headers);
  t.is(headers!.referer, 'https://referer.example/');
  t.is(headers!['x-upstream-token'], 'abc123');
  t.is(headers!.range, 'bytes=0-99');
  t.is(headers!.cookie, undefined);
  t.is(headers!.authorization, undefined);
  t.is(headers!['x-custom'], undefined);
});

test('an HLS item\'s headers go only to its own origin: a segment its playlist lists on another origin gets none', async (t) => {
  const seen = new Map<string, IncomingHttpHeaders>();
  const serve = (body: (path: string) => string) =>
    createServer((request, response) => {
      seen.set(request.url ?? '', request.headers);
      response.setHeader('content-type', request.url?.endsWith('.m3u8') ? 'application/vnd.apple.mpegurl' : 'video/mp2t');
      response.end(body(request.url ?? ''));
    });
  const other = serve(() => 'other-origin segment');
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
  const otherUrl = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
  const own = serve((path) =>
    path === '/vod.m3u8' ? `#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\nown.ts\n#EXTINF:2,\n${otherUrl}/elsewhere.ts\n#EXT-X-ENDLIST\n` : 'own-origin segment',
  );
  await new Promise<void>((resolve) => own.listen(0, '127.0.0.1', resolve));
  const ownUrl = `http://127.0.0.1:${(own.address() as AddressInfo).port}`;
  t.teardown(() => {
    own.close();
    other.close();
  });

  const mediaId = await addItem(bed, roomId, owner, {
    url: `${ownUrl}/vod.m3u8`,
    provider: 'hls',
    proxy: true,
    headers: { Authorization: 'Bearer provider-secret', 'X-Upstream-Token': 'abc123' },
  });
  const playlist = await read(await proxiedUrl(bed, roomId, mediaId, owner));
  t.is(playlist.status, 200);
  const segments = playlist.body.toString().split('\n').filter((line) => line !== '' && !line.startsWith('#'));
  t.is(segments.length, 2);
  for (const segment of segments) t.is((await read(`${bed.url}${segment}`)).status, 200, segment);

  t.is(seen.get('/vod.m3u8')?.authorization, 'Bearer provider-secret');
  t.is(seen.get('/own.ts')?.authorization, 'Bearer provider-secret', 'the item\'s own origin gets its headers');
  t.is(seen.get('/own.ts')?.['x-upstream-token'], 'abc123');
  const elsewhere = seen.get('/elsewhere.ts');
  t.truthy(elsewhere, 'the other origin was read through the proxy');
  t.is(elsewhere?.authorization, undefined, 'another origin never sees the item\'s Authorization');
  t.is(elsewhere?.['x-upstream-token'], undefined);
});

test('a direct item redirected to another origin sends it none of the item\'s headers, only the read\'s Range; a redirect on its own origin keeps them', async (t) => {
  const hops: Array<{ path: string; headers: IncomingHttpHeaders }> = [];
  const elsewhere: IncomingHttpHeaders[] = [];
  const other = createServer((request, response) => {
    elsewhere.push(request.headers);
    response.setHeader('content-type', 'video/mp4');
    response.end(bytes.subarray(0, 1000));
  });
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
  t.teardown(() => other.close());
  const otherUrl = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
  const front = createServer((request, response) => {
    hops.push({ path: request.url ?? '', headers: request.headers });
    const location = request.url === '/away.mp4' ? `${otherUrl}/moved.mp4` : request.url === '/here.mp4' ? '/landed.mp4' : undefined;
    if (location) {
      response.writeHead(302, { location }).end();
      return;
    }
    response.setHeader('content-type', 'video/mp4');
    response.end(bytes.subarray(0, 1000));
  });
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  t.teardown(() => front.close());
  const frontUrl = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;
  const headers = { Authorization: 'Bearer item-secret', 'X-Upstream-Token': 'abc123', Referer: 'https://referer.example/', Cookie: 'sid=item' };

  const away = await addItem(bed, roomId, owner, { url: `${frontUrl}/away.mp4`, proxy: true, headers });
  t.is((await read(await proxiedUrl(bed, roomId, away, owner), { range: 'bytes=0-99' })).status, 200);
  // The room's seek probe (Range 0-0) followed the redirect too: every request there is judged.
  t.true(elsewhere.some((headers) => headers.range === 'bytes=0-99'), 'the read was redirected to the other origin, its Range with it');
  for (const headers of elsewhere) {
    for (const name of ['authorization', 'x-upstream-token', 'referer', 'cookie']) t.is(headers[name], undefined, `${name} stays with the item's origin`);
  }

  const here = await addItem(bed, roomId, owner, { url: `${frontUrl}/here.mp4`, proxy: true, headers });
  t.is((await read(await proxiedUrl(bed, roomId, here, owner), { range: 'bytes=0-99' })).status, 200);
  const landed = hops.find((hop) => hop.path === '/landed.mp4' && hop.headers.range === 'bytes=0-99')?.headers;
  t.is(landed?.authorization, 'Bearer item-secret');
  t.is(landed?.['x-upstream-token'], 'abc123');
  t.is(landed?.referer, 'https://referer.example/');
  t.is(landed?.range, 'bytes=0-99');
});

test('unproxied items get the upstream URL and the headers the client must send', async (t) => {
  const mediaId = await addItem(bed, roomId, owner, { url: `${ranged.url}/movie.mp4`, headers: { Referer: 'https://r.example/' } });
  const info = await playInfo(bed, roomId, mediaId, owner);
  t.false(info.proxied);
  t.deepEqual(info.sources, [{ url: `${ranged.url}/movie.mp4`, type: 'file', headers: { Referer: 'https://r.example/' } }]);
  t.is(info.expiresAt, null);

  const stranger = await bed.signUp('stranger');
  const refused = await bed.call<{ code: string }>('GET', `/api/rooms/${roomId}/playlist/${mediaId}/play`, undefined, stranger.token);
  t.is(refused.status, 403);
});

test('unknown providers and items a provider refuses are rejected when added, naming the field', async (t) => {
  const unknown = await bed.call<{ code: string; issues: Array<{ key: string }> }>('POST', `/api/rooms/${roomId}/playlist`, { title: 'X', url: `${ranged.url}/a.mp4`, provider: 'bilibili' }, owner.token);
  t.is(unknown.status, 400);
  t.is(unknown.body.code, 'invalid_argument');
  t.deepEqual(unknown.body.issues.map((issue) => issue.key), ['provider']);
  const alistRoot = await bed.call<{ issues: Array<{ key: string }> }>('POST', `/api/rooms/${roomId}/playlist`, { title: 'X', url: 'https://alist.example.com/', provider: 'alist' }, owner.token);
  t.is(alistRoot.status, 400);
  t.deepEqual(alistRoot.body.issues.map((issue) => issue.key), ['url']);
  const bulk = await bed.call<{ issues: Array<{ key: string }> }>('POST', `/api/rooms/${roomId}/playlist/bulk`, { items: [{ title: 'ok', url: `${ranged.url}/a.mp4` }, { title: 'X', url: `${ranged.url}/b.mp4`, provider: 'nope' }] }, owner.token);
  t.is(bulk.status, 400);
  t.deepEqual(bulk.body.issues.map((issue) => issue.key), ['items.1.provider']);

  const listed = await bed.call<{ providers: Array<{ name: string; proxy: string }>; movieProxy: boolean }>('GET', '/api/media/providers');
  t.is(listed.status, 200);
  t.deepEqual(
    listed.body.providers.map((provider) => [provider.name, provider.proxy]),
    // `live` too: the bed runs RTMP ingest, and livestreams are served by this service itself.
    [['direct', 'optional'], ['hls', 'optional'], ['dash', 'optional'], ['local', 'never'], ['alist', 'required'], ['youtube', 'never'], ['live', 'never'], ['pull', 'never'], ['library', 'required']],
  );
  t.true(listed.body.movieProxy);
});

test('grants: another user\'s, another item\'s, an expired and a tampered token are refused; a kicked member\'s link stops working', async (t) => {
  const mediaId = await addItem(bed, roomId, owner, { url: `${ranged.url}/movie.mp4`, proxy: true });
  const grants = new MediaGrants(mediaGrantKey(bed.config.credential_encryption_key));
  const proxied = (token: string): string => `${bed.url}/media/proxy/${token}/movie.mp4`;
  const stranger = await bed.signUp('stranger');
  const otherRoom = await createRoom(bed, stranger);
  const otherItem = await addItem(bed, otherRoom, stranger, { url: `${ranged.url}/movie.mp4`, proxy: true });
  const soon = Date.now() + 60_000;

  const notMember = await read(proxied(grants.sign({ roomId, userId: stranger.userId, sessionId: stranger.sessionId, mediaId, resource: '', expiresAt: soon })));
  t.is(notMember.status, 403);
  // The owner's grant for an item of a room where that item does not exist.
  const wrongItem = await read(proxied(grants.sign({ roomId, userId: owner.userId, sessionId: owner.sessionId, mediaId: otherItem, resource: '', expiresAt: soon })));
  t.is(wrongItem.status, 403);
  const expired = await read(proxied(grants.sign({ roomId, userId: owner.userId, sessionId: owner.sessionId, mediaId, resource: '', expiresAt: Date.now() - 1000 })));
  t.is(expired.status, 403);
  t.regex((JSON.parse(expired.body.toString()) as { message: string }).message, /expired/);
  const good = new URL(await proxiedUrl(bed, roomId, mediaId, owner)).pathname.split('/')[3]!;
  const [payload, mac] = good.split('.') as [string, string];
  const forged = JSON.parse(Buffer.from(payload, 'base64url').toString()) as unknown[];
  forged[2] = otherItem;
  const tampered = await read(proxied(`${Buffer.from(JSON.stringify(forged)).toString('base64url')}.${mac}`));
  t.is(tampered.status, 403);
  t.is((await read(proxied(good), { range: 'bytes=0-9' })).status, 206);

  const viewer = await bed.signUp('viewer');
  await join(bed, roomId, viewer);
  const link = await proxiedUrl(bed, roomId, mediaId, viewer);
  t.is((await read(link, { range: 'bytes=0-9' })).status, 206);
  const kicked = await bed.call('POST', `/api/rooms/${roomId}/members/${viewer.userId}/kick`, undefined, owner.token);
  t.is(kicked.status, 200);
  // Membership is re-checked every 30 s at most: the link stops working within that.
  t.true(await eventually(async () => (await read(link, { range: 'bytes=0-9' })).status === 403, 45_000), 'the kicked member\'s link is refused');
});

test('a proxied link stops working (401) once its session ends: sign-out everywhere, a ban; another session\'s link plays on', async (t) => {
  const mediaId = await addItem(bed, roomId, owner, { url: `${ranged.url}/movie.mp4`, proxy: true });
  const [leaver, banned, admin] = await Promise.all([bed.signUp('leaver'), bed.signUp('banned'), bed.admin()]);
  for (const member of [leaver, banned]) await join(bed, roomId, member);
  const leaverLink = await proxiedUrl(bed, roomId, mediaId, leaver);
  const bannedLink = await proxiedUrl(bed, roomId, mediaId, banned);
  const ownerLink = await proxiedUrl(bed, roomId, mediaId, owner);
  // Read first, so the gateway holds the sessions as live.
  for (const link of [leaverLink, bannedLink, ownerLink]) t.is((await read(link, { range: 'bytes=0-9' })).status, 206);

  t.is((await bed.call('POST', '/api/auth/logout-all', undefined, leaver.token)).status, 200);
  t.is((await bed.call('POST', `/api/admin/users/${banned.userId}/ban`, {}, admin.token)).status, 200);

  for (const [who, link] of [['signed-out', leaverLink], ['banned', bannedLink]] as const) {
    t.true(await eventually(async () => (await read(link, { range: 'bytes=0-9' })).status === 401, 15_000), `the ${who} member's link is refused`);
    const refused = await read(link, { range: 'bytes=0-9' });
    t.like(JSON.parse(refused.body.toString()), { status: 401, code: 'unauthenticated' });
  }
  t.is((await read(ownerLink, { range: 'bytes=0-9' })).status, 206);
});

test.serial('proxy.movieProxy off refuses proxied reads at once, naming the key; on again, they work', async (t) => {
  const mediaId = await addItem(bed, roomId, owner, { url: `${ranged.url}/movie.mp4`, proxy: true });
  const url = await proxiedUrl(bed, roomId, mediaId, owner);
  await bed.set('proxy', { movieProxy: false });
  try {
    const off = await read(url, { range: 'bytes=0-9' });
    t.is(off.status, 403);
    t.regex((JSON.parse(off.body.toString()) as { message: string }).message, /proxy\.movieProxy/);
    const play = await bed.call<{ message: string }>('GET', `/api/rooms/${roomId}/playlist/${mediaId}/play`, undefined, owner.token);
    t.is(play.status, 403);
    t.regex(play.body.message, /proxy\.movieProxy/);
  } finally {
    await bed.set('proxy', { movieProxy: true });
  }
  t.is((await read(url, { range: 'bytes=0-9' })).status, 206);
});

test.serial('cors.allowedOrigins governs /media/* live, preflight included; the API\'s startup list does not', async (t) => {
  const mediaId = await addItem(bed, roomId, owner, { url: `${ranged.url}/movie.mp4`, proxy: true });
  const url = await proxiedUrl(bed, roomId, mediaId, owner);
  const site = 'https://player.example.org';
  const preflight = async (origin: string): Promise<Response> =>
    fetch(url, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'range' } });

  t.is((await read(url, { origin: site, range: 'bytes=0-0' })).headers.get('access-control-allow-origin'), null);
  await bed.set('cors', { allowedOrigins: [site] });
  try {
    const allowed = await read(url, { origin: site, range: 'bytes=0-0' });
    t.is(allowed.headers.get('access-control-allow-origin'), site);
    t.regex(allowed.headers.get('access-control-expose-headers') ?? '', /content-range/);
    const answer = await preflight(site);
    t.is(answer.status, 204);
    t.is(answer.headers.get('access-control-allow-origin'), site);
    t.regex(answer.headers.get('access-control-allow-headers') ?? '', /range/);
    // The API's own origin list (server.cors_allowed_origins) does not open /media/*.
    const apiOrigin = bed.config.server.cors_allowed_origins[0]!;
    t.is((await read(url, { origin: apiOrigin, range: 'bytes=0-0' })).headers.get('access-control-allow-origin'), null);
  } finally {
    await bed.set('cors', { allowedOrigins: [] });
  }
  t.is((await read(url, { origin: site, range: 'bytes=0-0' })).headers.get('access-control-allow-origin'), null);
  t.is((await preflight(site)).headers.get('access-control-allow-origin'), null);
});

test('the web client\'s page fallback does not answer /media/ paths', async (t) => {
  const answer = await read(`${bed.url}/media/nothing-here`);
  t.is(answer.status, 404);
  t.regex(answer.headers.get('content-type') ?? '', /json/);
});

test('a client that goes away aborts the upstream read', async (t) => {
  const mediaId = await addItem(bed, roomId, owner, { url: `${recorderUrl}/endless.mp4`, proxy: true });
  const url = await proxiedUrl(bed, roomId, mediaId, owner);
  const closed = new Promise<void>((resolve) => (endlessClosed = resolve));
  const aborter = new AbortController();
  const response = await fetch(url, { signal: aborter.signal });
  t.is(response.status, 200);
  const reader = response.body!.getReader();
  t.false((await reader.read()).done, 'bytes flow');
  aborter.abort();
  const outcome = await Promise.race([closed.then(() => 'closed'), new Promise((resolve) => setTimeout(() => resolve('still open'), 10_000))]);
  t.is(outcome, 'closed');
});

test('the proxy counts the bytes it sends on /metrics', async (t) => {
  const mediaId = await addItem(bed, roomId, owner, { url: `${ranged.url}/movie.mp4`, proxy: true });
  const url = await proxiedUrl(bed, roomId, mediaId, owner);
  t.is((await read(url, { range: 'bytes=0-999' })).status, 206);
  const metrics = await (await fetch(`${bed.metricsUrl}/metrics`)).text();
  const sent = /^media_proxy_bytes_total (\d+)/m.exec(metrics);
  t.truthy(sent, 'media_proxy_bytes_total is exported');
  t.true(Number(sent![1]) >= 1000);
});
