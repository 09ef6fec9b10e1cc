/**
 * WebDAV libraries through the whole service against Debian's nginx with its dav-ext module
 * (PROPFIND) behind HTTP Basic auth: connecting checks the credentials before storing anything,
 * browsing, searching, adding a folder in listing order, playing an added file through the
 * proxy byte-exact, who may use which library, and that the password appears in no answer and
 * no room event.
 */
import test from 'ava';
import type { Nginx } from '../../fixtures/nginx.js';
import { startWebDav } from '../../fixtures/webdav.js';
import { waitFor } from '../../fixtures/deadline.js';
import { freePort } from '../../harness/stack.js';
import type { RealtimeClient } from '../../harness/ws-client.js';
import type { GatewayBed, Member } from '../../gateways/bed.js';
import { open } from '../../gateways/ws/fixtures.js';
import { createRoom, join, proxiedUrl, read, startMediaBed } from '../media-bed.js';
import { BULK_MAX_ITEMS } from '../../../contracts/http/playlist.js';
import { ROOM_LIMITS } from '../../../contracts/room/limits.js';
import { addFromLibrary, connectRoomLibrary, listFolder, mediaTree, searchLibrary, type LibraryView } from './library-bed.js';

const USER = 'alice';
const PASSWORD = 'dav-pass-9f3c1e77';

let bed: GatewayBed;
let dav: Nginx;
let owner: Member;
let member: Member;
let stranger: Member;
let roomId: string;
let bytes: Map<string, Buffer>;
let library: LibraryView;
let socket: RealtimeClient;
/** Every answer body of the library API in this file, to look for the password in. */
const answers: string[] = [];

test.before(async () => {
  const tree = await mediaTree();
  bytes = tree.bytes;
  dav = await startWebDav({ root: tree.root, username: USER, password: PASSWORD });
  bed = await startMediaBed('media-libraries-webdav');
  owner = await bed.signUp('owner');
  member = await bed.signUp('member');
  stranger = await bed.signUp('stranger');
  roomId = await createRoom(bed, owner);
  await join(bed, roomId, member);
  socket = await open(bed, roomId, member);
  const connected = await connectRoomLibrary(bed, roomId, owner, { kind: 'webdav', name: 'Home NAS', url: `${dav.url}/`, username: USER, secret: PASSWORD });
  if (connected.status !== 201) throw new Error(`connect failed: ${JSON.stringify(connected.body)}`);
  answers.push(JSON.stringify(connected.body));
  library = connected.body.library;
});
test.after.always(async () => {
  await socket?.close();
  await bed?.close();
  await dav?.stop();
});

test.serial('connecting checks the credentials first: a wrong password names secret, an unreachable server names url, and nothing is stored', async (t) => {
  const wrong = await connectRoomLibrary(bed, roomId, owner, { kind: 'webdav', name: 'Wrong', url: `${dav.url}/`, username: USER, secret: 'not it' });
  t.is(wrong.status, 400);
  t.is(wrong.body.code, 'invalid_argument');
  t.deepEqual(wrong.body.issues?.map((issue) => issue.key), ['secret']);
  const closedPort = await freePort();
  const away = await connectRoomLibrary(bed, roomId, owner, { kind: 'webdav', name: 'Away', url: `http://127.0.0.1:${closedPort}/`, username: USER, secret: PASSWORD });
  t.is(away.status, 400);
  t.deepEqual(away.body.issues?.map((issue) => issue.key), ['url']);
  const withCredentials = await connectRoomLibrary(bed, roomId, owner, { kind: 'webdav', name: 'Inline', url: `http://${USER}:${PASSWORD}@127.0.0.1:${dav.port}/`, secret: '' });
  t.is(withCredentials.status, 400);
  t.deepEqual(withCredentials.body.issues?.map((issue) => issue.key), ['url']);
  const listed = await bed.call<{ libraries: LibraryView[]; kinds: Array<{ kind: string }> }>('GET', `/api/rooms/${roomId}/libraries`, undefined, owner.token);
  answers.push(JSON.stringify(listed.body));
  t.deepEqual(listed.body.libraries.map((l) => l.name), ['Home NAS'], 'only the working connection was stored');
  t.true(listed.body.kinds.some((k) => k.kind === 'webdav') && listed.body.kinds.some((k) => k.kind === 'alist'));
  t.deepEqual(listed.body.libraries[0]!.owner, { kind: 'room', roomId });
});

test.serial('browsing lists folders first, then files by name as people read them (2 before 10), with their kinds', async (t) => {
  const root = await listFolder(bed, roomId, library.id, member);
  answers.push(JSON.stringify(root.body));
  t.is(root.status, 200);
  t.deepEqual(
    root.body.entries.map((e) => [e.id, e.kind]),
    [
      ['/Movies/', 'folder'],
      ['/Music/', 'folder'],
      ['/Shows/', 'folder'],
      ['/readme.txt', 'other'],
    ],
  );
  const season = await listFolder(bed, roomId, library.id, member, '/Shows/S1/');
  t.deepEqual(
    season.body.entries.map((e) => [e.name, e.kind, e.size]),
    [
      ['ep01.mp4', 'video', 2000],
      ['ep02.mp4', 'video', 2001],
      ['ep10.mp4', 'video', 2002],
      ['notes.txt', 'other', 12],
    ],
  );
  t.false(season.body.truncated);
  const climbing = await listFolder(bed, roomId, library.id, member, '/Shows/../../');
  t.is(climbing.status, 400);
  const missing = await listFolder(bed, roomId, library.id, member, '/Nope/');
  t.is(missing.status, 404);
});

test.serial('search walks the folders and matches names', async (t) => {
  const found = await searchLibrary(bed, roomId, library.id, member, 'EP0');
  answers.push(JSON.stringify(found.body));
  t.is(found.status, 200);
  t.deepEqual(found.body.entries.map((e) => e.id).sort(), ['/Shows/S1/ep01.mp4', '/Shows/S1/ep02.mp4']);
  t.false(found.body.truncated);
});

test.serial('adding a folder adds its video and audio files in listing order, then its subfolders\', and they play through the proxy byte-exact', async (t) => {
  const added = await addFromLibrary(bed, roomId, library.id, member, { entryId: '/Shows/', folder: true });
  answers.push(JSON.stringify(added.body));
  t.is(added.status, 201);
  t.false(added.body.capped);
  t.deepEqual(
    added.body.added.map((a) => a.item.title),
    // Shows' own file, then its folders by name: extras, then S1.
    ['intro.mp4', 'trailer.webm', 'ep01.mp4', 'ep02.mp4', 'ep10.mp4'],
  );
  t.true(added.body.added.every((a) => a.item.provider === 'library' && a.item.url.startsWith(`library:${library.id}/`)));
  const playlist = await bed.call<{ items: Array<{ id: string; title: string }> }>('GET', `/api/rooms/${roomId}/playlist`, undefined, owner.token);
  answers.push(JSON.stringify(playlist.body));
  t.deepEqual(
    playlist.body.items.map((i) => i.title),
    ['intro.mp4', 'trailer.webm', 'ep01.mp4', 'ep02.mp4', 'ep10.mp4'],
  );
  const episode = added.body.added[3]!.item;
  const url = await proxiedUrl(bed, roomId, episode.id, member);
  const whole = await read(url);
  t.is(whole.status, 200);
  t.true(whole.body.equals(bytes.get('Shows/S1/ep02.mp4')!));
  const part = await read(url, { range: 'bytes=100-199' });
  t.is(part.status, 206);
  t.true(part.body.equals(bytes.get('Shows/S1/ep02.mp4')!.subarray(100, 200)));
  // The file was read with the password: nginx logged authorised GETs of it.
  t.true((await dav.requests()).some((r) => r.method === 'GET' && r.path === '/Shows/S1/ep02.mp4' && r.status === 200));
});

test.serial('one file is added under its name or a given title', async (t) => {
  const added = await addFromLibrary(bed, roomId, library.id, owner, { entryId: '/Movies/film.mp4', folder: false, title: 'The film' });
  t.is(added.status, 201);
  t.is(added.body.added.length, 1);
  t.is(added.body.added[0]!.item.title, 'The film');
  const url = await proxiedUrl(bed, roomId, added.body.added[0]!.item.id, owner);
  t.true((await read(url)).body.equals(bytes.get('Movies/film.mp4')!));
});

test.serial('who may use which library: a guest or a member without create_media_resource is refused, a personal library is its owner\'s alone', async (t) => {
  // Not a member of the room.
  t.is((await listFolder(bed, roomId, library.id, stranger)).status, 403);
  // A member cannot connect a library for the room (edit_room_settings).
  const byMember = await connectRoomLibrary(bed, roomId, member, { kind: 'webdav', name: 'Mine', url: `${dav.url}/`, username: USER, secret: PASSWORD });
  t.is(byMember.status, 403);
  // A personal library of the owner: usable by them in the room, unknown to the member.
  const personal = await bed.call<{ library: LibraryView }>('POST', '/api/libraries', { kind: 'webdav', name: 'Owner\'s own', url: `${dav.url}/Movies/`, username: USER, secret: PASSWORD }, owner.token);
  answers.push(JSON.stringify(personal.body));
  t.is(personal.status, 201);
  t.deepEqual(personal.body.library.owner, { kind: 'user', userId: owner.userId });
  const mine = await listFolder(bed, roomId, personal.body.library.id, owner);
  t.deepEqual(mine.body.entries.map((e) => e.id), ['/film.mp4']);
  t.is((await listFolder(bed, roomId, personal.body.library.id, member)).status, 404);
  t.is((await addFromLibrary(bed, roomId, personal.body.library.id, member, { entryId: '/film.mp4', folder: false })).status, 404);
  const seenByMember = await bed.call<{ libraries: LibraryView[] }>('GET', `/api/rooms/${roomId}/libraries`, undefined, member.token);
  t.deepEqual(seenByMember.body.libraries.map((l) => l.id), [library.id]);
  // Nor can a member name the personal library in an item URL of their own making.
  const forged = await bed.call<{ issues?: Array<{ key: string }> }>(
    'POST',
    `/api/rooms/${roomId}/playlist`,
    { title: 'Forged', provider: 'library', url: `library:${personal.body.library.id}/${encodeURIComponent('/film.mp4')}?sig=${'A'.repeat(43)}`, proxy: true },
    member.token,
  );
  t.is(forged.status, 400);
  t.deepEqual(forged.body.issues?.map((i) => i.key), ['url']);
  // A member whose role lost create_media_resource may no longer browse.
  const narrowed = await bed.call('PATCH', `/api/rooms/${roomId}`, { permissionOverrides: { member: ['view_media_resources', 'view_member_list'] } }, owner.token);
  t.is(narrowed.status, 200);
  try {
    t.is((await listFolder(bed, roomId, library.id, member)).status, 403);
    t.is((await addFromLibrary(bed, roomId, library.id, member, { entryId: '/Music/', folder: true })).status, 403);
  } finally {
    await bed.call('PATCH', `/api/rooms/${roomId}`, { permissionOverrides: { member: null } }, owner.token);
  }
});

test.serial('a folder refused at its first file (a full playlist) adds nothing: no empty playlist folder is left', async (t) => {
  const fullRoom = await createRoom(bed, owner);
  const connected = await connectRoomLibrary(bed, fullRoom, owner, { kind: 'webdav', name: 'Full', url: `${dav.url}/`, username: USER, secret: PASSWORD });
  // Fillers on the library's own server (absent files), not on a name to look up: the room
  // probes what it is given, and with no DNS answer (a sandbox, CI) the test process waited
  // about 90 s after its last test for hundreds of lookups of media.example.com to time out.
  const items = Array.from({ length: BULK_MAX_ITEMS }, (_, i) => ({ title: `Filler ${i}`, url: `${dav.url}/filler-${i}.mp4` }));
  for (let added = 0; added < ROOM_LIMITS.playlistMaxItems; added += BULK_MAX_ITEMS) {
    const bulk = await bed.call('POST', `/api/rooms/${fullRoom}/playlist/bulk`, { items }, owner.token);
    if (bulk.status !== 201) throw new Error(`filling the playlist: ${bulk.status} ${JSON.stringify(bulk.body)}`);
  }
  const refused = await addFromLibrary(bed, fullRoom, connected.body.library.id, owner, { entryId: '/Shows/', folder: true });
  t.is(refused.status, 429, JSON.stringify(refused.body));
  t.is((refused.body as unknown as { code: string }).code, 'limit_exceeded');
  const view = await bed.call<{ playlistFolders?: unknown[]; playlist?: unknown[] }>('GET', `/api/rooms/${fullRoom}`, undefined, owner.token);
  t.deepEqual(view.body.playlistFolders, []);
  t.is(view.body.playlist?.length, ROOM_LIMITS.playlistMaxItems);
});

test.serial('a removed library leaves its items answering not_found naming it', async (t) => {
  const connected = await connectRoomLibrary(bed, roomId, owner, { kind: 'webdav', name: 'Short-lived', url: `${dav.url}/`, username: USER, secret: PASSWORD });
  const gone = connected.body.library;
  const added = await addFromLibrary(bed, roomId, gone.id, owner, { entryId: '/Music/song.mp3', folder: false });
  const mediaId = added.body.added[0]!.item.id;
  t.is((await bed.call('DELETE', `/api/rooms/${roomId}/libraries/${gone.id}`, undefined, member.token)).status, 403, 'a member may not remove the room\'s library');
  t.is((await bed.call('DELETE', `/api/rooms/${roomId}/libraries/${gone.id}`, undefined, owner.token)).status, 204);
  const play = await bed.call<{ code: string; message: string }>('GET', `/api/rooms/${roomId}/playlist/${mediaId}/play`, undefined, owner.token);
  t.is(play.status, 404);
  t.is(play.body.code, 'not_found');
  t.true(play.body.message.includes(gone.id), play.body.message);
});

test.serial('the password is in no answer and no room event', async (t) => {
  await waitFor('the added items\' events', () => (socket.events.filter((e) => JSON.stringify(e).includes('"library"')).length >= 5 ? true : undefined), 10_000);
  const everything = [...answers, ...socket.events.map((e) => JSON.stringify(e))].join('\n');
  t.false(everything.includes(PASSWORD));
  t.false(everything.includes(Buffer.from(`${USER}:${PASSWORD}`).toString('base64')));
  t.true(everything.includes('Home NAS'), 'the answers were collected');
});

test('connecting is rate-limited per caller, failed attempts included: each one makes this server call a URL the caller chose', async (t) => {
  const prober = await bed.signUp('prober');
  const attempt = () => bed.call<{ code: string; message: string }>('POST', '/api/libraries', { kind: 'webdav', name: 'Probe', url: `${dav.url}/`, username: USER, secret: 'wrong' }, prober.token);
  for (let i = 0; i < 10; i++) t.is((await attempt()).status, 400, `attempt ${i + 1} is judged`);
  const limited = await attempt();
  t.is(limited.status, 429);
  t.is(limited.body.code, 'rate_limited');
  t.regex(limited.body.message, /connecting libraries/);
  const neighbour = await bed.signUp('neighbour');
  const other = await bed.call('POST', '/api/libraries', { kind: 'webdav', name: 'Mine', url: `${dav.url}/`, username: USER, secret: 'wrong' }, neighbour.token);
  t.is(other.status, 400, 'another caller is not held back');
});
