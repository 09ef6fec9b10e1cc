/**
 * MPEG-DASH through the media proxy, against Debian's nginx serving an ffmpeg-made DASH
 * video-on-demand: the manifest comes back rewritten so that every initialization and media
 * segment the player fills its templates in for is read through the service (byte-exact, with
 * Range), and a folder link reads nothing
 * outside the folder its manifest named.
 */
import { readFile } from 'node:fs/promises';
import { request } from 'node:http';
import { join } from 'node:path';
import test from 'ava';
import { XMLParser } from 'fast-xml-parser';
import { startNginx, type Nginx } from '../fixtures/nginx.js';
import type { GatewayBed, Member } from '../gateways/bed.js';
import { makeTestDash, makeTestVideo } from '../web/e2e/media.js';
import { addItem, createRoom, playInfo, proxiedUrl, read, startMediaBed } from './media-bed.js';

let bed: GatewayBed;
let owner: Member;
let roomId: string;
let nginx: Nginx;
let dir: string;
let manifestPath: string;

test.before(async () => {
  const video = await makeTestVideo({ seconds: 4, size: '160x90' });
  dir = video.dir;
  manifestPath = await makeTestDash(dir, { seconds: 6 });
  nginx = await startNginx({ root: dir });
  bed = await startMediaBed('media-dash');
  owner = await bed.signUp('owner');
  roomId = await createRoom(bed, owner);
});
test.after.always(async () => {
  await bed?.close();
  await nginx?.stop();
});

interface Template {
  representation: string;
  initialization: string;
  media: string;
}

/** Each Representation's SegmentTemplate URLs in a manifest. */
function templatesOf(manifest: string): Template[] {
  const parsed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', isArray: (name) => ['AdaptationSet', 'Representation'].includes(name) }).parse(manifest) as {
    MPD: { Period: { AdaptationSet: Array<{ Representation: Array<{ id: string; SegmentTemplate: { initialization: string; media: string } }> }> } };
  };
  return parsed.MPD.Period.AdaptationSet.flatMap((set) =>
    set.Representation.map((rep) => ({ representation: rep.id, initialization: rep.SegmentTemplate.initialization, media: rep.SegmentTemplate.media })),
  );
}

const fill = (template: string, representation: string, number: number): string =>
  template.replaceAll('$RepresentationID$', representation).replace(/\$Number%0(\d)d\$/, (_all, width: string) => String(number).padStart(Number(width), '0'));

/** GET with the path exactly as given: fetch() would resolve `..` and `%2e%2e` before sending. */
function rawGet(origin: string, path: string): Promise<number> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    request({ hostname, port, path, method: 'GET' }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    })
      .on('error', reject)
      .end();
  });
}

test('a proxied DASH manifest is rewritten: every segment comes through the proxy byte-exact, Range included, and nginx saw the reads', async (t) => {
  const mediaId = await addItem(bed, roomId, owner, { url: `${nginx.url}/${manifestPath}`, provider: 'dash', proxy: true, title: 'DASH clock' });
  const info = await playInfo(bed, roomId, mediaId, owner);
  t.is(info.sources[0]?.type, 'dash');
  const url = await proxiedUrl(bed, roomId, mediaId, owner);
  t.regex(new URL(url).pathname, /^\/media\/proxy\/[^/]+\/manifest\.mpd$/);

  const manifest = await read(url);
  t.is(manifest.status, 200);
  t.is(manifest.headers.get('content-type'), 'application/dash+xml');
  const text = manifest.body.toString('utf8');
  t.false(text.includes(nginx.url), 'the manifest names no upstream URL');
  const templates = templatesOf(text);
  t.is(templates.length, 2, 'video and audio');
  await nginx.clearRequests();
  for (const template of templates) {
    t.regex(template.media, /^\/media\/proxy\/[^/]+\/chunk-stream\$RepresentationID\$-\$Number%05d\$\.m4s$/, 'the template survives for the player to fill in');
    const init = fill(template.initialization, template.representation, 1);
    const segment = fill(template.media, template.representation, 2);
    const original = await readFile(join(dir, 'dash', segment.split('/').pop()!));
    const initAnswer = await read(`${bed.url}${init}`);
    t.is(initAnswer.status, 200, init);
    t.true(initAnswer.body.equals(await readFile(join(dir, 'dash', init.split('/').pop()!))), `${init} is byte-exact`);
    const whole = await read(`${bed.url}${segment}`);
    t.true(whole.body.equals(original), `${segment} is byte-exact`);
    const part = await read(`${bed.url}${segment}`, { range: 'bytes=100-199' });
    t.is(part.status, 206);
    t.true(part.body.equals(original.subarray(100, 200)));
  }
  const served = await nginx.requests();
  t.true(served.some((entry) => /^\/dash\/chunk-stream\d-00002\.m4s$/.test(entry.path) && entry.range === 'bytes=100-199'), 'the Range went upstream');
});

test('a folder link reads only inside its folder: `..` (plain or percent-encoded) and another item\'s file are refused', async (t) => {
  const mediaId = await addItem(bed, roomId, owner, { url: `${nginx.url}/${manifestPath}`, provider: 'dash', proxy: true, title: 'DASH escape' });
  const manifest = (await read(await proxiedUrl(bed, roomId, mediaId, owner))).body.toString('utf8');
  const folder = templatesOf(manifest)[0]!.media.replace(/[^/]+$/, '');
  t.is(await rawGet(bed.url, `${folder}init-stream0.m4s`), 200, 'inside the folder');
  t.is(await rawGet(bed.url, `${folder}../clock.webm`), 403);
  t.is(await rawGet(bed.url, `${folder}%2e%2e/clock.webm`), 403);
  t.is(await rawGet(bed.url, `${folder}%2E%2E%2Fclock.webm`), 403, 'nginx would decode the slash, then climb');
  t.is(await rawGet(bed.url, `${folder}//127.0.0.1:1/x`), 403, 'no other origin');
});

test('unproxied, a DASH item is the manifest URL itself, and .mpd items of the direct provider are DASH too', async (t) => {
  const dash = await addItem(bed, roomId, owner, { url: `${nginx.url}/${manifestPath}`, provider: 'dash', title: 'Direct DASH' });
  t.deepEqual((await playInfo(bed, roomId, dash, owner)).sources, [{ url: `${nginx.url}/${manifestPath}`, type: 'dash' }]);
  const direct = await addItem(bed, roomId, owner, { url: `${nginx.url}/${manifestPath}`, title: 'By extension' });
  t.is((await playInfo(bed, roomId, direct, owner)).sources[0]?.type, 'dash');
});
