/**
 * Providers through the whole service: the `alist` example provider against a fake Alist whose
 * raw links expire every 3 s (reads across several expiries all succeed, the viewer never
 * sees the refusals), HLS playlists rewritten through the proxy (master, variants, EXT-X-MAP,
 * EXT-X-MEDIA) with their segments readable byte-exact (ffmpeg makes the stream, nginx serves
 * it), and SSRF refusals of items that point at addresses the operator did not allow.
 */
import { execFile } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import test from 'ava';
import { startFakeAlist, type FakeAlist } from '../fixtures/fake-alist.js';
import { startNginx, type Nginx } from '../fixtures/nginx.js';
import type { GatewayBed, Member } from '../gateways/bed.js';
import { addItem, createRoom, playInfo, proxiedUrl, randomFile, read, startMediaBed } from './media-bed.js';

const run = promisify(execFile);
const SIZE = 3 * 1024 * 1024 + 77;

let bed: GatewayBed;
let owner: Member;
let roomId: string;
let bytes: Buffer;
let dir: string;
let alist: FakeAlist;
let nginx: Nginx;

test.before(async () => {
  const file = await randomFile('film.mp4', SIZE);
  bytes = file.bytes;
  dir = file.dir;
  await mkdir(join(dir, 'movies'));
  await writeFile(join(dir, 'movies', 'film.mp4'), bytes);
  await makeHls(join(dir, 'hls'));
  alist = await startFakeAlist({ root: dir, linkTtlMs: 3000, passwords: { '/movies': 'open sesame' } });
  nginx = await startNginx({ root: dir, serverConfig: 'location = /away { return 302 http://[::1]:1/film.mp4; }' });
  bed = await startMediaBed('media-providers');
  owner = await bed.signUp('owner');
  roomId = await createRoom(bed, owner);
});
test.after.always(async () => {
  await bed?.close();
  await alist?.close();
  await nginx?.stop();
});

/** A short HLS VOD: a TS variant, an fMP4 variant (EXT-X-MAP), and a master playlist naming both. */
async function makeHls(out: string): Promise<void> {
  await mkdir(join(out, 'fmp4'), { recursive: true });
  const source = ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=160x120:rate=10:duration=3', '-c:v', 'libx264', '-preset', 'ultrafast', '-g', '10'];
  await run('ffmpeg', [...source, '-f', 'hls', '-hls_time', '1', '-hls_playlist_type', 'vod', '-hls_segment_filename', join(out, 'seg%02d.ts'), join(out, 'ts.m3u8')]);
  await run('ffmpeg', [...source, '-f', 'hls', '-hls_time', '1', '-hls_playlist_type', 'vod', '-hls_segment_type', 'fmp4', '-hls_fmp4_init_filename', 'init.mp4', '-hls_segment_filename', join(out, 'fmp4', 'seg%02d.m4s'), join(out, 'fmp4', 'index.m3u8')]);
  await writeFile(
    join(out, 'master.m3u8'),
    [
      '#EXTM3U',
      '#EXT-X-MEDIA:TYPE=VIDEO,GROUP-ID="alt",NAME="fmp4",URI="fmp4/index.m3u8"',
      '#EXT-X-STREAM-INF:BANDWIDTH=200000,RESOLUTION=160x120',
      'ts.m3u8',
      '#EXT-X-STREAM-INF:BANDWIDTH=210000,RESOLUTION=160x120,VIDEO="alt"',
      'fmp4/index.m3u8',
      '',
    ].join('\n'),
  );
}

test('alist: expiring raw links are re-resolved; reads across several expiries all succeed byte-exact', async (t) => {
  const mediaId = await addItem(bed, roomId, owner, {
    url: `${alist.url}/d/movies/film.mp4`,
    provider: 'alist',
    headers: { Authorization: 'alist-api-token', 'X-Alist-Password': 'open sesame' },
  });
  const info = await playInfo(bed, roomId, mediaId, owner);
  t.true(info.proxied, 'alist items always go through the proxy');
  t.is(info.sources[0]!.type, 'file');
  const url = new URL(info.sources[0]!.url, bed.url).href;

  // Read until the fake Alist has issued four links (so three have expired under the reader).
  const deadline = Date.now() + 60_000;
  let reads = 0;
  while (alist.issued() < 4 && Date.now() < deadline) {
    const start = randomInt(0, SIZE - 1);
    const end = Math.min(SIZE - 1, start + randomInt(0, 256 * 1024));
    const answer = await read(url, { range: `bytes=${start}-${end}` });
    t.is(answer.status, 206, `read ${reads} (${start}-${end})`);
    if (answer.status !== 206 || !answer.body.equals(bytes.subarray(start, end + 1))) {
      t.fail(`read ${reads} (${start}-${end}) is not byte-exact`);
      return;
    }
    reads += 1;
  }
  t.true(alist.issued() >= 4, `links issued: ${alist.issued()}`);
  t.true(alist.expiredRefusals() >= 1, 'the upstream refused an expired link at least once, unseen by the reader');
  // The other tests of this file run alongside and call the same fake, with other passwords.
  const calls = alist.apiCalls().filter((call) => call.password === 'open sesame');
  t.true(calls.length >= 4, `calls with this item's password: ${calls.length}`);
  for (const call of calls) {
    t.is(call.headers.authorization, 'alist-api-token', 'the API token goes to the API');
    t.is(call.headers['x-alist-password'], undefined, 'the password travels in the body, not as a header');
  }
});

test('alist: a wrong folder password is reported as the upstream\'s refusal', async (t) => {
  const mediaId = await addItem(bed, roomId, owner, { url: `${alist.url}/movies/film.mp4`, provider: 'alist', headers: { 'X-Alist-Password': 'wrong' } });
  const answer = await bed.call<{ code: string; message: string }>('GET', `/api/rooms/${roomId}/playlist/${mediaId}/play`, undefined, owner.token);
  t.is(answer.status, 502);
  t.is(answer.body.code, 'bad_gateway');
  t.regex(answer.body.message, /password is incorrect/);
});

test('hls: playlists are rewritten to signed proxy URLs (variants, EXT-X-MEDIA, EXT-X-MAP) and segments read byte-exact', async (t) => {
  const mediaId = await addItem(bed, roomId, owner, { url: `${nginx.url}/hls/master.m3u8`, provider: 'hls', proxy: true });
  const info = await playInfo(bed, roomId, mediaId, owner);
  t.is(info.sources[0]!.type, 'hls');
  const master = await read(new URL(info.sources[0]!.url, bed.url).href);
  t.is(master.status, 200);
  t.is(master.headers.get('content-type'), 'application/vnd.apple.mpegurl');
  const masterText = master.body.toString();
  t.notRegex(masterText, /127\.0\.0\.1/, 'no upstream address is left in the playlist');
  const uris = urisOf(masterText);
  t.is(uris.length, 3);
  for (const uri of uris) t.regex(uri, /^\/media\/proxy\/[^/]+\/(ts|index)\.m3u8$/);

  const [, tsVariant, fmp4Variant] = uris as [string, string, string];
  let segments = 0;
  for (const [variant, folder] of [[tsVariant, 'hls'], [fmp4Variant, 'hls/fmp4']] as const) {
    const playlist = await read(`${bed.url}${variant}`);
    t.is(playlist.status, 200);
    const text = playlist.body.toString();
    const files = (await readFile(join(dir, folder, folder === 'hls' ? 'ts.m3u8' : 'index.m3u8'), 'utf8'))
      .split('\n')
      .flatMap((line) => (line.startsWith('#EXT-X-MAP') ? [/URI="([^"]+)"/.exec(line)![1]!] : line && !line.startsWith('#') ? [line] : []));
    const proxied = urisOf(text);
    t.is(proxied.length, files.length);
    for (const [index, uri] of proxied.entries()) {
      t.regex(uri, /^\/media\/proxy\//);
      const segment = await read(`${bed.url}${uri}`);
      t.is(segment.status, 200);
      t.true(segment.body.equals(await readFile(join(dir, folder, files[index]!))), `${files[index]} is byte-exact`);
      segments += 1;
    }
  }
  t.true(segments >= 6);
});

test('ssrf: an item on a loopback address the operator did not allow, or redirecting to one, is refused with 403', async (t) => {
  const direct = await addItem(bed, roomId, owner, { url: `http://[::1]:${nginx.port}/film.mp4`, proxy: true });
  const refused = await read(await proxiedUrl(bed, roomId, direct, owner), { range: 'bytes=0-9' });
  t.is(refused.status, 403);
  const body = JSON.parse(refused.body.toString()) as { code: string; message: string };
  t.is(body.code, 'forbidden');
  t.regex(body.message, /loopback/);
  t.regex(body.message, /media_proxy\.allowed_networks/);

  const redirected = await addItem(bed, roomId, owner, { url: `${nginx.url}/away`, proxy: true });
  const hop = await read(await proxiedUrl(bed, roomId, redirected, owner), { range: 'bytes=0-9' });
  t.is(hop.status, 403);
  t.regex((JSON.parse(hop.body.toString()) as { message: string }).message, /::1: it is a loopback address/);
});

test('ssrf: every address form that embeds or is a refused address is refused through the proxy route, IPv4-compatible IPv6 included', async (t) => {
  // The bed allows 127.0.0.0/8; none of these forms may reach it, or anything else not public.
  const forms: Array<[host: string, range: RegExp]> = [
    ['[::127.0.0.1]', /\[?::7f00:1\]?: it is a ipv4Compatible address/],
    ['[::10.0.0.1]', /ipv4Compatible/],
    ['[::203.0.113.7]', /ipv4Compatible/],
    ['[::ffff:10.0.0.1]', /private/],
    ['[::ffff:169.254.169.254]', /linkLocal/],
    ['169.254.169.254', /linkLocal/],
    ['10.0.0.1', /private/],
    ['0.0.0.0', /unspecified/],
    ['[::]', /unspecified/],
    ['[::1]', /loopback/],
    ['[64:ff9b::7f00:1]', /rfc6052/],
    ['[::ffff:0:7f00:1]', /rfc6145/],
    ['[2002:7f00:1::]', /6to4/],
    ['[2001::7f00:1]', /teredo/],
  ];
  for (const [host, range] of forms) {
    const mediaId = await addItem(bed, roomId, owner, { url: `http://${host}:${nginx.port}/film.mp4`, proxy: true });
    const answer = await read(await proxiedUrl(bed, roomId, mediaId, owner), { range: 'bytes=0-9' });
    t.is(answer.status, 403, host);
    const body = JSON.parse(answer.body.toString()) as { code: string; message: string };
    t.is(body.code, 'forbidden', host);
    t.regex(body.message, range, host);
  }
});

/** The URIs a playlist names: lines that are not tags, and URI="..." attributes. */
function urisOf(text: string): string[] {
  return text.split('\n').flatMap((line) => {
    if (line.startsWith('#')) return [...line.matchAll(/URI="([^"]+)"/g)].map((match) => match[1]!);
    return line.trim() === '' ? [] : [line.trim()];
  });
}
