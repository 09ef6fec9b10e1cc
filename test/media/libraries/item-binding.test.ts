/**
 * A library item's link is bound to the room it was added in, and plays only while its
 * library is usable there (docs/2026-11-26-media-libraries.md, "Item URLs"): against Debian's
 * nginx WebDAV, a member banned from a room cannot replay that room's library links in a room
 * of their own (refused when added, naming `url`), a personal library's items stop playing in a
 * room once its owner is banned from it, and the `library` provider itself (built on the bed's
 * database) resolves a link only in its room, and a link of the old form (no room in it) only
 * where its library is usable.
 */
import { createHmac } from 'node:crypto';
import test from 'ava';
import { SecretBox } from '../../../crypto/secret-box.js';
import type { MediaItem } from '../../../contracts/room/model.js';
import { isAppError } from '../../../errors/app-error.js';
import { createMediaLibraries } from '../../../media/libraries/create.js';
import { libraryItemKey } from '../../../media/libraries/item-url.js';
import { LibraryProvider } from '../../../media/providers/library.js';
import { AddressPolicy } from '../../../media/proxy/address-policy.js';
import { UpstreamClient } from '../../../media/proxy/upstream-client.js';
import { createPool } from '../../../postgres/pool.js';
import type { Nginx } from '../../fixtures/nginx.js';
import { startWebDav } from '../../fixtures/webdav.js';
import type { GatewayBed, Member } from '../../gateways/bed.js';
import { createRoom, eventually, join, proxiedUrl, read, startMediaBed } from '../media-bed.js';
import { addFromLibrary, connectRoomLibrary, mediaTree, type LibraryView } from './library-bed.js';

const USER = 'binder';
const PASSWORD = 'dav-pass-bound-77aa';

let bed: GatewayBed;
let dav: Nginx;
let bytes: Map<string, Buffer>;
let owner: Member;
let member: Member;
let holder: Member;
let roomA: string;
let roomLibrary: LibraryView;
let personal: LibraryView;
/** The URL of the room library's film, as the member added it in room A. */
let filmUrl = '';

interface Issues {
  code?: string;
  issues?: Array<{ key: string }>;
}

/** A library item URL of the form this server wrote before items were bound to rooms. */
function legacyUrl(libraryId: string, entryId: string): string {
  const mac = createHmac('sha256', libraryItemKey(bed.config.credential_encryption_key)).update(`${libraryId}\n${entryId}`).digest('base64url');
  return `library:${libraryId}/${encodeURIComponent(entryId)}?sig=${mac}`;
}

test.before(async () => {
  const tree = await mediaTree();
  bytes = tree.bytes;
  dav = await startWebDav({ root: tree.root, username: USER, password: PASSWORD });
  bed = await startMediaBed('media-libraries-binding');
  [owner, member, holder] = await Promise.all([bed.signUp('owner'), bed.signUp('member'), bed.signUp('holder')]);
  roomA = await createRoom(bed, owner);
  await join(bed, roomA, member);
  await join(bed, roomA, holder);
  const connected = await connectRoomLibrary(bed, roomA, owner, { kind: 'webdav', name: 'Room A files', url: `${dav.url}/`, username: USER, secret: PASSWORD });
  if (connected.status !== 201) throw new Error(`connect failed: ${JSON.stringify(connected.body)}`);
  roomLibrary = connected.body.library;
  const mine = await bed.call<{ library: LibraryView }>('POST', '/api/libraries', { kind: 'webdav', name: 'Holder\'s music', url: `${dav.url}/Music/`, username: USER, secret: PASSWORD }, holder.token);
  if (mine.status !== 201) throw new Error(`personal connect failed: ${JSON.stringify(mine.body)}`);
  personal = mine.body.library;
});
test.after.always(async () => {
  await bed?.close();
  await dav?.stop();
});

test.serial('a member banned from a room cannot replay its library links in a room of their own: refused when added, naming url', async (t) => {
  const added = await addFromLibrary(bed, roomA, roomLibrary.id, member, { entryId: '/Movies/film.mp4', folder: false });
  t.is(added.status, 201, JSON.stringify(added.body));
  const filmId = added.body.added[0]!.item.id;
  filmUrl = added.body.added[0]!.item.url;
  t.true(filmUrl.includes(roomA), 'the link names its room');

  t.is((await bed.call('PUT', `/api/rooms/${roomA}/bans/${member.userId}`, undefined, owner.token)).status, 200);
  const roomB = await createRoom(bed, member);
  const replayed = await bed.call<Issues>('POST', `/api/rooms/${roomB}/playlist`, { title: 'Replayed', provider: 'library', url: filmUrl, proxy: true }, member.token);
  t.is(replayed.status, 400, JSON.stringify(replayed.body));
  t.is(replayed.body.code, 'invalid_argument');
  t.deepEqual(replayed.body.issues?.map((issue) => issue.key), ['url']);
  const bulk = await bed.call<Issues>('POST', `/api/rooms/${roomB}/playlist/bulk`, { items: [{ title: 'Replayed', provider: 'library', url: filmUrl, proxy: true }] }, member.token);
  t.is(bulk.status, 400);
  t.deepEqual(bulk.body.issues?.map((issue) => issue.key), ['items.0.url']);
  const old = await bed.call<Issues>('POST', `/api/rooms/${roomB}/playlist`, { title: 'Old form', provider: 'library', url: legacyUrl(roomLibrary.id, '/Movies/film.mp4'), proxy: true }, member.token);
  t.is(old.status, 400, 'a link of the old form is not added anywhere any more');
  t.deepEqual(old.body.issues?.map((issue) => issue.key), ['url']);
  const direct = await bed.call<{ item: { id: string } }>('POST', `/api/rooms/${roomB}/playlist`, { title: 'Direct', url: `${dav.url}/readme.txt` }, member.token);
  t.is(direct.status, 201);
  const edited = await bed.call<Issues>('PATCH', `/api/rooms/${roomB}/playlist/${direct.body.item.id}`, { provider: 'library', url: filmUrl, proxy: true }, member.token);
  t.is(edited.status, 400, 'nor can an item be edited into one');
  t.deepEqual(edited.body.issues?.map((issue) => issue.key), ['url']);

  // In room A the item is the room's: it plays on for those still there.
  t.true((await read(await proxiedUrl(bed, roomA, filmId, owner))).body.equals(bytes.get('Movies/film.mp4')!));
});

test.serial('a personal library\'s items stop playing in a room once their owner is banned from it', async (t) => {
  const added = await addFromLibrary(bed, roomA, personal.id, holder, { entryId: '/song.mp3', folder: false });
  t.is(added.status, 201, JSON.stringify(added.body));
  const songId = added.body.added[0]!.item.id;
  const link = await proxiedUrl(bed, roomA, songId, owner);
  t.true((await read(link)).body.equals(bytes.get('Music/song.mp3')!));

  t.is((await bed.call('PUT', `/api/rooms/${roomA}/bans/${holder.userId}`, undefined, owner.token)).status, 200);
  t.true(await eventually(async () => (await read(link, { range: 'bytes=0-9' })).status === 403, 15_000), 'the link handed out before the ban stops');
  const play = await bed.call<{ code: string; message: string }>('GET', `/api/rooms/${roomA}/playlist/${songId}/play`, undefined, owner.token);
  t.is(play.status, 403);
  t.is(play.body.code, 'forbidden');
  t.regex(play.body.message, /no longer a member/);
});

test.serial('the library provider resolves a link only in the room it names, and a link of the old form only where its library is usable', async (t) => {
  const pool = createPool({ url: bed.databaseUrl });
  const http = new UpstreamClient({ policy: new AddressPolicy(['127.0.0.0/8']), headersTimeoutMs: 5000, idleTimeoutMs: 5000, maxRedirects: 3 });
  t.teardown(async () => {
    http.close();
    await pool.end();
  });
  const provider = new LibraryProvider(createMediaLibraries(bed.config, pool, new SecretBox([bed.config.credential_encryption_key]), http));
  const roomB = await createRoom(bed, owner);
  const resolveIn = (url: string, roomId: string) => provider.resolve({ id: 'm', url } as MediaItem, { refresh: false, signal: AbortSignal.timeout(10_000), roomId });
  const refusal = async (promise: Promise<unknown>): Promise<string> => {
    const error = await t.throwsAsync(promise);
    return isAppError(error) ? error.code : String(error);
  };

  t.is((await resolveIn(filmUrl, roomA)).url, `${dav.url}/Movies/film.mp4`);
  t.is(await refusal(resolveIn(filmUrl, roomB)), 'not_found', 'a link signed for room A names nothing in room B');
  t.deepEqual(provider.check({ url: filmUrl, headers: {}, roomId: roomB }).map((issue) => issue.key), ['url']);

  // Old links: the room's own library in its room; a personal library where its owner is a member.
  t.is((await resolveIn(legacyUrl(roomLibrary.id, '/Movies/film.mp4'), roomA)).url, `${dav.url}/Movies/film.mp4`);
  t.true(['not_found', 'forbidden'].includes(await refusal(resolveIn(legacyUrl(roomLibrary.id, '/Movies/film.mp4'), roomB))));
  const ownersOwn = await bed.call<{ library: LibraryView }>('POST', '/api/libraries', { kind: 'webdav', name: 'Owner\'s', url: `${dav.url}/Shows/`, username: USER, secret: PASSWORD }, owner.token);
  t.is(ownersOwn.status, 201);
  t.is((await resolveIn(legacyUrl(ownersOwn.body.library.id, '/intro.mp4'), roomA)).url, `${dav.url}/Shows/intro.mp4`);
  t.is(await refusal(resolveIn(legacyUrl(personal.id, '/song.mp3'), roomA)), 'forbidden', 'its owner was banned from room A');
  const strangersRoom = await createRoom(bed, member);
  t.is(await refusal(resolveIn(legacyUrl(ownersOwn.body.library.id, '/intro.mp4'), strangersRoom)), 'forbidden', 'its owner is no member of that room');
});
