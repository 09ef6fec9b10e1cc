/**
 * Alist / OpenList libraries through the whole service against the fake Alist
 * (test/fixtures/fake-alist.ts), which answers the documented API: the real server cannot be
 * built here (the Go proxy refuses alist-org/alist/v3 and OpenListTeam/OpenList/v4). Logging
 * in with a user name, browsing, searching (and a site without search), adding, and playing
 * through raw links that expire and are resolved again.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import { AlistConnector } from '../../../media/libraries/alist.js';
import { AddressPolicy } from '../../../media/proxy/address-policy.js';
import { UpstreamClient } from '../../../media/proxy/upstream-client.js';
import { waitFor } from '../../fixtures/deadline.js';
import { startFakeAlist, type FakeAlist } from '../../fixtures/fake-alist.js';
import type { GatewayBed, Member } from '../../gateways/bed.js';
import { createRoom, proxiedUrl, read, startMediaBed } from '../media-bed.js';
import { addFromLibrary, connectRoomLibrary, listFolder, mediaTree, searchLibrary, type LibraryView } from './library-bed.js';

const USER = 'watcher';
const PASSWORD = 'alist-pass-4b1d';

let bed: GatewayBed;
let alist: FakeAlist;
let noSearch: FakeAlist;
let owner: Member;
let roomId: string;
let bytes: Map<string, Buffer>;
let library: LibraryView;

test.before(async () => {
  const tree = await mediaTree();
  bytes = tree.bytes;
  alist = await startFakeAlist({ root: tree.root, linkTtlMs: 1500, users: { [USER]: PASSWORD } });
  noSearch = await startFakeAlist({ root: tree.root, linkTtlMs: 60_000, search: false });
  bed = await startMediaBed('media-libraries-alist');
  owner = await bed.signUp('owner');
  roomId = await createRoom(bed, owner);
  const connected = await connectRoomLibrary(bed, roomId, owner, { kind: 'alist', name: 'Drive', url: alist.url, username: USER, secret: PASSWORD });
  if (connected.status !== 201) throw new Error(`connect failed: ${JSON.stringify(connected.body)}`);
  library = connected.body.library;
});
test.after.always(async () => {
  await bed?.close();
  await alist?.close();
  await noSearch?.close();
});

test('connecting logs in first: a wrong password names secret, an unknown user names username', async (t) => {
  const wrong = await connectRoomLibrary(bed, roomId, owner, { kind: 'alist', name: 'x', url: alist.url, username: USER, secret: 'nope' });
  t.is(wrong.status, 400);
  t.deepEqual(wrong.body.issues?.map((i) => i.key), ['secret']);
  const unknown = await connectRoomLibrary(bed, roomId, owner, { kind: 'alist', name: 'x', url: alist.url, username: 'nobody', secret: PASSWORD });
  t.deepEqual(unknown.body.issues?.map((i) => i.key), ['username']);
  const anonymous = await connectRoomLibrary(bed, roomId, owner, { kind: 'alist', name: 'x', url: alist.url });
  t.deepEqual(anonymous.body.issues?.map((i) => i.key), ['secret'], 'the site refuses its guest: the token is what is missing');
  t.true(alist.logins() >= 1);
});

test('browsing and searching through the API, with the token from the login', async (t) => {
  const root = await listFolder(bed, roomId, library.id, owner);
  t.is(root.status, 200);
  t.deepEqual(root.body.entries.map((e) => [e.id, e.kind]), [
    ['/Movies', 'folder'],
    ['/Music', 'folder'],
    ['/Shows', 'folder'],
    ['/readme.txt', 'other'],
  ]);
  const music = await listFolder(bed, roomId, library.id, owner, '/Music');
  t.deepEqual(music.body.entries.map((e) => [e.name, e.kind, e.size]), [['song.mp3', 'audio', 900]]);
  const found = await searchLibrary(bed, roomId, library.id, owner, 'ep1');
  t.deepEqual(found.body.entries.map((e) => e.id), ['/Shows/S1/ep10.mp4']);
  t.false(found.body.truncated);
});

test('a site without a search index says search is turned off', async (t) => {
  const connected = await connectRoomLibrary(bed, roomId, owner, { kind: 'alist', name: 'Public', url: noSearch.url });
  t.is(connected.status, 201);
  const found = await searchLibrary(bed, roomId, connected.body.library.id, owner, 'film');
  t.is(found.status, 503);
  t.is(found.body.code, 'unavailable');
  t.regex(found.body.message ?? '', /search turned off/);
  t.is((await listFolder(bed, roomId, connected.body.library.id, owner, '/Movies')).body.entries[0]?.name, 'film.mp4', 'browsing still works');
});

test('added files play through raw links that expire and are resolved again, byte-exact', async (t) => {
  const added = await addFromLibrary(bed, roomId, library.id, owner, { entryId: '/Shows/S1', folder: true });
  t.is(added.status, 201);
  t.deepEqual(added.body.added.map((a) => a.item.title), ['ep01.mp4', 'ep02.mp4', 'ep10.mp4']);
  const film = await addFromLibrary(bed, roomId, library.id, owner, { entryId: '/Movies/film.mp4', folder: false });
  const url = await proxiedUrl(bed, roomId, film.body.added[0]!.item.id, owner);
  const expected = bytes.get('Movies/film.mp4')!;
  t.true((await read(url)).body.equals(expected));
  // Reads go on until one outlived its raw link: the proxy was refused (403) and asked Alist again, unseen by the reader.
  let reads = 0;
  let exact = true;
  await waitFor(
    'a read after a raw link expired',
    async () => {
      const start = (reads++ * 4099) % (expected.length - 1000);
      const part = await read(url, { range: `bytes=${start}-${start + 999}` });
      exact &&= part.status === 206 && part.body.equals(expected.subarray(start, start + 1000));
      return alist.expiredRefusals() > 0 ? true : undefined;
    },
    20_000,
    250,
  );
  t.true(exact, 'every read was byte-exact');
  t.true(alist.issued() >= 2, 'a new raw link was issued');
});

// Serial: ava runs it before the others, so their fs/get calls are not counted here.
test.serial('an entry id that is not a clean path under the site\'s root is refused naming the field, before the site is asked', async (t) => {
  const before = alist.apiCalls().length;
  for (const folder of ['/Movies//', '//Movies', '/Movies/%2e%2e', '/Movies/..%2F..', '/Movies\\..', 'Movies']) {
    const listed = await listFolder(bed, roomId, library.id, owner, folder);
    t.is(listed.status, 400, `${folder}: ${JSON.stringify(listed.body)}`);
    t.deepEqual((listed.body as { issues?: Array<{ key: string }> }).issues?.map((issue) => issue.key), ['folder'], folder);
  }
  for (const entryId of ['//Movies/film.mp4', '/Movies//film.mp4', '/Shows/%2e%2e/Movies/film.mp4', '/Movies\\film.mp4']) {
    const added = await addFromLibrary(bed, roomId, library.id, owner, { entryId, folder: false });
    t.is(added.status, 400, `${entryId}: ${JSON.stringify(added.body)}`);
    t.deepEqual((added.body as { issues?: Array<{ key: string }> }).issues?.map((issue) => issue.key), ['entryId'], entryId);
  }
  t.is(alist.apiCalls().length, before, 'no fs/get was sent');
});

test('the site\'s token does not follow its API to another origin; a redirect on the site\'s own origin keeps it', async (t) => {
  const seen: Array<{ at: string; headers: IncomingHttpHeaders }> = [];
  const listen = async (server: Server): Promise<string> => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    t.teardown(() => server.close());
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };
  const answer = JSON.stringify({ code: 200, message: 'success', data: { content: [], total: 0 } });
  const other = await listen(
    createServer((request, response) => {
      request.resume();
      seen.push({ at: `other ${request.url}`, headers: request.headers });
      response.setHeader('content-type', 'application/json');
      response.end(answer);
    }),
  );
  const front = await listen(
    createServer((request, response) => {
      request.resume();
      if (request.url === '/away/api/fs/list') return void response.writeHead(307, { location: `${other}/api/fs/list` }).end();
      if (request.url === '/home/api/fs/list') return void response.writeHead(307, { location: '/home/api/fs/list-again' }).end();
      seen.push({ at: `front ${request.url}`, headers: request.headers });
      response.setHeader('content-type', 'application/json');
      response.end(answer);
    }),
  );
  const http = new UpstreamClient({ policy: new AddressPolicy(['127.0.0.0/8']), headersTimeoutMs: 5000, idleTimeoutMs: 5000, maxRedirects: 3 });
  t.teardown(() => http.close());
  const connector = new AlistConnector(http);
  const signal = AbortSignal.timeout(10_000);
  await connector.list({ url: `${front}/away`, username: '', secret: 'alist-admin-token' }, '/', { signal });
  await connector.list({ url: `${front}/home`, username: '', secret: 'alist-admin-token' }, '/', { signal });
  t.deepEqual(seen.map((entry) => entry.at), ['other /api/fs/list', 'front /home/api/fs/list-again']);
  t.is(seen[0]!.headers.authorization, undefined, 'another origin never sees the token');
  t.is(seen[0]!.headers['content-type'], 'application/json', 'the body\'s type goes on with the body');
  t.is(seen[1]!.headers.authorization, 'alist-admin-token');
});
