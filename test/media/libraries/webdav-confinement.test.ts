/**
 * A WebDAV library's entries, and the playlists and manifests stored in it, stay inside the
 * library's folder, against Debian's nginx with dav-ext serving a tree where the library is
 * `/dav/lib/` and other files sit beside it (`/dav/secret.mp4`). An entry id that names another
 * host (`///host/...`), climbs out (`//dav/...`, `%2e%2e`, backslashes) or holds empty segments
 * is refused naming the field before anything is requested; an HLS playlist or DASH manifest in
 * the library that names a segment outside the folder or on another origin gets it refused,
 * and the library's password goes nowhere but the library: not to a host a redirect names, nor
 * to a path above the library's folder on its own server.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import test from 'ava';
import { XMLParser } from 'fast-xml-parser';
import type { Nginx } from '../../fixtures/nginx.js';
import { startWebDav } from '../../fixtures/webdav.js';
import type { GatewayBed, Member } from '../../gateways/bed.js';
import { createRoom, proxiedUrl, read, startMediaBed } from '../media-bed.js';
import { addFromLibrary, connectRoomLibrary, listFolder, type LibraryView } from './library-bed.js';

const USER = 'keeper';
const PASSWORD = 'dav-pass-confined-51c2';

interface Seen {
  path: string;
  headers: IncomingHttpHeaders;
}

/** A listener on another origin that records what reached it. */
async function recorder(host: string, port: number): Promise<{ url: string; seen: Seen[]; server: Server }> {
  const seen: Seen[] = [];
  const server = createServer((request, response) => {
    seen.push({ path: request.url ?? '', headers: request.headers });
    response.setHeader('content-type', 'video/mp2t');
    response.end('not the library');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  return { url: `http://${host}:${(server.address() as AddressInfo).port}`, seen, server };
}

let bed: GatewayBed;
let dav: Nginx;
let owner: Member;
let roomId: string;
let library: LibraryView;
let files: Map<string, Buffer>;
let elsewhere: Awaited<ReturnType<typeof recorder>>;
/** `///127.0.0.2/...` reaches port 80 of 127.0.0.2: null when this machine does not let the test listen there. */
let otherHost: Awaited<ReturnType<typeof recorder>> | null = null;

test.before(async () => {
  elsewhere = await recorder('127.0.0.1', 0);
  try {
    otherHost = await recorder('127.0.0.2', 80);
  } catch {
    otherHost = null;
  }
  const root = await mkdtemp(join(tmpdir(), 'svc-confined-'));
  files = new Map();
  const put = async (path: string, data: Buffer | string): Promise<void> => {
    const bytes = Buffer.isBuffer(data) ? data : Buffer.from(data);
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), bytes);
    files.set(path, bytes);
  };
  await put('dav/lib/Movies/film.mp4', randomBytes(1000));
  await put('dav/secret.mp4', randomBytes(1000));
  await put('dav/secret.ts', randomBytes(500));
  await put('dav/lib/Show/seg0.ts', randomBytes(500));
  await put(
    'dav/lib/Show/vod.m3u8',
    `#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\nseg0.ts\n#EXTINF:2,\n../../secret.ts\n#EXTINF:2,\n${elsewhere.url}/away.ts\n#EXT-X-ENDLIST\n`,
  );
  for (const name of ['in-init.m4s', 'in-1.m4s']) await put(`dav/lib/Dash/${name}`, randomBytes(300));
  for (const name of ['up-init.m4s', 'up-1.m4s']) await put(`dav/${name}`, randomBytes(300));
  const representation = (id: string, base: string, prefix: string): string =>
    `<Representation id="${id}" bandwidth="1000" width="160" height="90" codecs="avc1.42c00d">${base}<SegmentTemplate timescale="1" duration="2" startNumber="1" initialization="${prefix}${id}-init.m4s" media="${prefix}${id}-$Number$.m4s"/></Representation>`;
  await put(
    'dav/lib/Dash/manifest.mpd',
    `<?xml version="1.0" encoding="utf-8"?>\n<MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static" mediaPresentationDuration="PT4S" minBufferTime="PT2S" profiles="urn:mpeg:dash:profile:isoff-live:2011"><Period><AdaptationSet mimeType="video/mp4">${representation('in', '', '')}${representation('up', '', '../../')}${representation('away', `<BaseURL>${elsewhere.url}/away/</BaseURL>`, '')}</AdaptationSet></Period></MPD>\n`,
  );
  dav = await startWebDav({
    root,
    username: USER,
    password: PASSWORD,
    // The library server hands some files on: to another origin, inside the library, above it.
    serverConfig: `
    location = /dav/lib/moved.mp4 { return 302 ${elsewhere.url}/moved.mp4; }
    location = /dav/lib/here.mp4 { return 302 /dav/lib/Movies/film.mp4; }
    location = /dav/lib/out.mp4 { return 302 /dav/secret.mp4; }`,
  });
  bed = await startMediaBed('media-libraries-confined');
  owner = await bed.signUp('owner');
  roomId = await createRoom(bed, owner);
  const connected = await connectRoomLibrary(bed, roomId, owner, { kind: 'webdav', name: 'Confined', url: `${dav.url}/dav/lib/`, username: USER, secret: PASSWORD });
  if (connected.status !== 201) throw new Error(`connect failed: ${JSON.stringify(connected.body)}`);
  library = connected.body.library;
});
test.after.always(async () => {
  await bed?.close();
  await dav?.stop();
  elsewhere?.server.close();
  otherHost?.server.close();
});

/** What nginx served outside the library's folder. */
async function outsideReads(): Promise<string[]> {
  return (await dav.requests()).map((request) => request.path).filter((path) => !path.startsWith('/dav/lib/') && path !== '/dav/lib');
}

test.serial('an entry id naming another host, climbing out or holding empty segments is refused naming the field, and nothing outside the library is asked for', async (t) => {
  const badFolders = ['//dav/', '///127.0.0.2/', '/Movies//', '/%2e%2e/', '/Movies/%2E%2E/', '/Movies/.%2e/', '/Movies\\..\\..\\'];
  for (const folder of badFolders) {
    const answer = await listFolder(bed, roomId, library.id, owner, folder);
    t.is(answer.status, 400, `folder ${folder}: ${JSON.stringify(answer.body)}`);
    t.deepEqual((answer.body as { issues?: Array<{ key: string }> }).issues?.map((issue) => issue.key), ['folder'], folder);
  }
  const badFiles = ['//dav/secret.mp4', '///127.0.0.2/secret.mp4', '/%2e%2e/secret.mp4', '/Movies/%2e%2e/%2e%2e/secret.mp4', '/Movies/..%2F..%2Fsecret.mp4', '/Movies\\..\\..\\secret.mp4', '/Movies//film.mp4'];
  for (const entryId of badFiles) {
    const answer = await addFromLibrary(bed, roomId, library.id, owner, { entryId, folder: false });
    t.is(answer.status, 400, `entry ${entryId}: ${JSON.stringify(answer.body)}`);
    t.deepEqual((answer.body as { issues?: Array<{ key: string }> }).issues?.map((issue) => issue.key), ['entryId'], entryId);
  }
  t.deepEqual(await outsideReads(), [], 'nginx served nothing outside /dav/lib/');
  if (otherHost) t.deepEqual(otherHost.seen, [], 'the other host was never asked (and never saw the password)');
  else t.log('127.0.0.2:80 could not be listened on here: the other host is judged by the answers alone');
  // What the library holds still plays.
  const film = await addFromLibrary(bed, roomId, library.id, owner, { entryId: '/Movies/film.mp4', folder: false });
  t.is(film.status, 201);
  t.true((await read(await proxiedUrl(bed, roomId, film.body.added[0]!.item.id, owner))).body.equals(files.get('dav/lib/Movies/film.mp4')!));
});

test.serial('an HLS playlist in the library gets its own segments; one outside the folder or on another origin is refused, and the password goes nowhere else', async (t) => {
  const added = await addFromLibrary(bed, roomId, library.id, owner, { entryId: '/Show/vod.m3u8', folder: false });
  t.is(added.status, 201, JSON.stringify(added.body));
  const playlist = await read(await proxiedUrl(bed, roomId, added.body.added[0]!.item.id, owner));
  t.is(playlist.status, 200);
  const segments = playlist.body.toString('utf8').split('\n').filter((line) => line !== '' && !line.startsWith('#'));
  t.is(segments.length, 3);
  t.false(playlist.body.toString('utf8').includes(dav.url), 'the playlist names no upstream URL');
  const [inside, above, away] = await Promise.all(segments.map((segment) => read(`${bed.url}${segment}`)));
  t.is(inside!.status, 200);
  t.true(inside!.body.equals(files.get('dav/lib/Show/seg0.ts')!));
  t.is(above!.status, 403, 'a segment above the library folder');
  t.regex((JSON.parse(above!.body.toString()) as { message: string }).message, /library/);
  t.is(away!.status, 403, 'a segment on another origin');
  t.deepEqual(elsewhere.seen, [], 'the other origin was never asked');
  t.deepEqual(await outsideReads(), []);
});

test.serial('a DASH manifest in the library gets its own folder; a template climbing out or a BaseURL on another origin is refused', async (t) => {
  const added = await addFromLibrary(bed, roomId, library.id, owner, { entryId: '/Dash/manifest.mpd', folder: false });
  t.is(added.status, 201, JSON.stringify(added.body));
  const manifest = await read(await proxiedUrl(bed, roomId, added.body.added[0]!.item.id, owner));
  t.is(manifest.status, 200);
  const text = manifest.body.toString('utf8');
  t.false(text.includes(dav.url) || text.includes(elsewhere.url), 'the manifest names no upstream URL');
  const parsed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', isArray: (name) => name === 'Representation' }).parse(text) as {
    MPD: { Period: { AdaptationSet: { Representation: Array<{ id: string; BaseURL?: string; SegmentTemplate: { initialization: string; media: string } }> } } };
  };
  const byId = new Map(parsed.MPD.Period.AdaptationSet.Representation.map((rep) => [rep.id, rep]));
  const urlOf = (id: string, which: 'initialization' | 'media'): string => {
    const rep = byId.get(id)!;
    const file = rep.SegmentTemplate[which].replace('$Number$', '1');
    return new URL(file, new URL(rep.BaseURL ?? '', `${bed.url}/`)).href;
  };
  const inside = await read(urlOf('in', 'media'));
  t.is(inside.status, 200);
  t.true(inside.body.equals(files.get('dav/lib/Dash/in-1.m4s')!));
  t.is((await read(urlOf('in', 'initialization'))).status, 200);
  for (const which of ['initialization', 'media'] as const) {
    t.is((await read(urlOf('up', which))).status, 403, `the up ${which} (above the library folder)`);
    t.is((await read(urlOf('away', which))).status, 403, `the away ${which} (another origin)`);
  }
  t.deepEqual(elsewhere.seen, [], 'the other origin was never asked');
  t.deepEqual(await outsideReads(), []);
  t.true((await dav.requests()).every((request) => request.status !== 401), 'every library read carried the password');
});

test.serial('a file the library server redirects gets the password only inside the library: not on another origin, not above the folder on the same server', async (t) => {
  const play = async (entryId: string) => {
    const added = await addFromLibrary(bed, roomId, library.id, owner, { entryId, folder: false });
    t.is(added.status, 201, JSON.stringify(added.body));
    return read(await proxiedUrl(bed, roomId, added.body.added[0]!.item.id, owner), { range: 'bytes=0-99' });
  };
  const moved = await play('/moved.mp4');
  t.is(moved.status, 200);
  const atOther = elsewhere.seen.filter((request) => request.path === '/moved.mp4');
  t.true(atOther.some((request) => request.headers.range === 'bytes=0-99'), 'the read was redirected there, its Range with it');
  t.true(atOther.every((request) => request.headers.authorization === undefined), 'another origin never gets the password');

  const here = await play('/here.mp4');
  t.is(here.status, 206, 'inside the library the password goes on');
  t.true(here.body.equals(files.get('dav/lib/Movies/film.mp4')!.subarray(0, 100)));

  const out = await play('/out.mp4');
  t.not(out.status, 200);
  t.not(out.status, 206);
  t.false(out.body.includes(files.get('dav/secret.mp4')!.subarray(0, 100)), 'the file above the library was not read with the password');
  t.true((await dav.requests()).some((request) => request.path === '/dav/secret.mp4' && request.status === 401), 'nginx was asked without credentials and refused');
});
