/**
 * A Jellyfin or Emby library set to `transcoder: server` converts its items itself
 * (docs/2026-11-29-how-items-reach-browsers.md, "Jellyfin and Emby transcode themselves"): an
 * item browsers cannot play as it is (H.264 and AAC in Matroska: reach `remux`, probed by this
 * service as always) plays as the server's HLS through the media proxy, and every member of the
 * room reads the same server-side session (one PlaySessionId and DeviceId per room and item).
 * Left at `svc`, the default, the item goes to this service's shared transcode as before. The
 * setting is refused for kinds that cannot convert, naming the field, and round-trips through
 * the edit endpoint. The servers are the stand-in (every request checked against the servers'
 * API descriptions); the whole service runs, its transcoder role too (the probe is its job).
 */
import test, { type ExecutionContext } from 'ava';
import type { MediaReach } from '../../../contracts/room/reach.js';
import { waitFor } from '../../fixtures/deadline.js';
import { REMUX_SECONDS, startMediaBrowserStandin, type Flavour, type MediaBrowserStandin } from '../../fixtures/media-browser-standin.js';
import type { GatewayBed, Member } from '../../gateways/bed.js';
import { createRoom, join, read, startMediaBed } from '../media-bed.js';
import { addFromLibrary, connectRoomLibrary, type LibraryView } from './library-bed.js';

interface Play {
  sources: Array<{ url: string; type: string }>;
  proxied: boolean;
  transcode?: { how: string; heights: number[]; refused?: string; by?: string };
}

let bed: GatewayBed;
const standins = new Map<Flavour, MediaBrowserStandin>();
let owner: Member;
let member: Member;
let roomId: string;

test.before(async () => {
  const [jellyfin, emby] = await Promise.all([startMediaBrowserStandin('jellyfin', { transcodes: true }), startMediaBrowserStandin('emby', { transcodes: true })]);
  standins.set('jellyfin', jellyfin).set('emby', emby);
  bed = await startMediaBed('library_server_transcode', {}, ['gateway', 'actors', 'transcoder']);
  owner = await bed.signUp('transcode-owner');
  member = await bed.signUp('transcode-member');
  roomId = await createRoom(bed, owner);
  await join(bed, roomId, member);
});
test.after.always(async () => {
  await bed?.close();
  await Promise.all([...standins.values()].map((standin) => standin.close()));
});

const standin = (flavour: Flavour): MediaBrowserStandin => standins.get(flavour)!;

async function connect(t: ExecutionContext, flavour: Flavour, transcoder?: 'svc' | 'server'): Promise<LibraryView & { transcoder: string }> {
  const fields = { kind: flavour, name: `${flavour} ${transcoder ?? 'default'}`, url: standin(flavour).url, username: '', secret: standin(flavour).apiKey, ...(transcoder ? { transcoder } : {}) };
  const connected = await connectRoomLibrary(bed, roomId, owner, fields);
  t.is(connected.status, 201, JSON.stringify(connected.body));
  return connected.body.library as LibraryView & { transcoder: string };
}

/** Adds the Matroska film and waits for the probe to say it needs its container changed. */
async function addRemux(t: ExecutionContext, flavour: Flavour, libraryId: string): Promise<string> {
  const added = await addFromLibrary(bed, roomId, libraryId, owner, { entryId: standin(flavour).ids.remux, folder: false });
  t.is(added.status, 201, JSON.stringify(added.body));
  const mediaId = added.body.added[0]!.item.id;
  const reach = await waitFor(
    'the probe of the Matroska film',
    async () => {
      const answer = await bed.call<{ items: Array<{ id: string; reach?: MediaReach | null }> }>('GET', `/api/rooms/${roomId}/playlist`, undefined, owner.token);
      return answer.body.items.find((item) => item.id === mediaId)?.reach ?? undefined;
    },
    30_000,
    200,
  );
  t.is(reach.how, 'remux', 'H.264 and AAC in Matroska: only the container is in the way');
  return mediaId;
}

async function play(mediaId: string, who: Member): Promise<Play> {
  const answer = await bed.call<Play>('GET', `/api/rooms/${roomId}/playlist/${mediaId}/play`, undefined, who.token);
  if (answer.status !== 200) throw new Error(`play failed: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
}

const absolute = (path: string): string => new URL(path, bed.url).href;
/** A playlist's URI lines (variants, segments). */
const uris = (text: string): string[] => text.split('\n').filter((line) => line.trim() !== '' && !line.startsWith('#'));

async function readPlaylist(t: ExecutionContext, url: string): Promise<string> {
  const answer = await read(absolute(url));
  t.is(answer.status, 200, answer.body.toString('utf8').slice(0, 300));
  const text = answer.body.toString('utf8');
  t.true(text.startsWith('#EXTM3U'));
  return text;
}

for (const flavour of ['jellyfin', 'emby'] as const) {
  test.serial(`${flavour} set to server: two members play its own transcode through the proxy, in one session of the room`, async (t) => {
    const library = await connect(t, flavour, 'server');
    t.is(library.transcoder, 'server');
    const mediaId = await addRemux(t, flavour, library.id);
    const before = standin(flavour).transcodeRequests().length;

    const plays = await Promise.all([play(mediaId, owner), play(mediaId, member)]);
    for (const info of plays) {
      t.is(info.sources.length, 1);
      t.is(info.sources[0]!.type, 'hls');
      t.regex(info.sources[0]!.url, /^\/media\/proxy\/[^/]+\/master\.m3u8$/, 'the server\'s playlist through the proxy, not svc\'s transcode');
      t.true(info.proxied);
      t.like(info.transcode, { how: 'remux', by: 'server', heights: [120] });
    }

    for (const info of plays) {
      const master = await readPlaylist(t, info.sources[0]!.url);
      const [variantUrl] = uris(master);
      t.regex(variantUrl ?? '', /^\/media\/proxy\//, 'the variant is signed for the proxy too');
      const variant = await readPlaylist(t, variantUrl!);
      t.true(variant.includes('#EXT-X-ENDLIST'), 'a playlist of the whole film: players seek by segments');
      const segments = uris(variant);
      t.is(segments.length, REMUX_SECONDS / 2);
      t.true(segments.every((segment) => segment.startsWith('/media/proxy/')));
      // A seek: the last segment first, its query (session, and Jellyfin's position) passed on.
      const last = await read(absolute(segments.at(-1)!));
      t.is(last.status, 200);
      t.is(last.body[0], 0x47, 'an MPEG-TS segment');
    }

    const asked = standin(flavour).transcodeRequests().slice(before);
    t.deepEqual(
      [...new Set(asked.map((request) => request.kind))].sort(),
      ['master', 'segment', 'variant'],
    );
    t.is(asked.filter((request) => request.kind === 'master').length, 2, 'each member\'s player read the master');
    const sessions = new Set(asked.map((request) => `${request.playSessionId}/${request.deviceId}`));
    t.is(sessions.size, 1, `one server session for the room: ${[...sessions].join(', ')}`);
    const [session] = asked;
    t.regex(session!.playSessionId ?? '', /^[0-9a-f]{32}$/);
    t.regex(session!.deviceId ?? '', /^[0-9a-f]{32}$/);
    t.true(asked.every((request) => request.itemId === standin(flavour).ids.remux && request.query.mediasourceid === standin(flavour).ids.mediaSourceId));
    if (flavour === 'jellyfin') {
      t.true(asked.filter((request) => request.kind === 'segment').every((request) => request.query.runtimeticks !== undefined && request.query.actualsegmentlengthticks !== undefined));
      t.true(asked.every((request) => request.query.enableadaptivebitratestreaming === 'false'), 'one variant: each would be an encode of its own');
    }
    t.deepEqual(standin(flavour).violations(), []);
  });
}

test.serial('left at svc (the default), the item goes to this service\'s shared transcode as before', async (t) => {
  const library = await connect(t, 'jellyfin');
  t.is(library.transcoder, 'svc');
  const mediaId = await addRemux(t, 'jellyfin', library.id);
  const before = standin('jellyfin').transcodeRequests().length;
  const info = await play(mediaId, member);
  t.regex(info.sources[0]!.url, /^\/media\/transcode\/[^/]+\/master\.m3u8$/);
  t.like(info.transcode, { how: 'remux' });
  t.is(info.transcode?.by, undefined);
  t.is(info.transcode?.refused, undefined);
  t.is(standin('jellyfin').transcodeRequests().length, before, 'the server was not asked to convert');
  t.deepEqual(standin('jellyfin').violations(), []);
});

test.serial('the setting round-trips through the edit endpoint, and the next play follows it', async (t) => {
  const library = await connect(t, 'jellyfin', 'server');
  const mediaId = await addRemux(t, 'jellyfin', library.id);
  const path = `/api/rooms/${roomId}/libraries/${library.id}`;

  const toSvc = await bed.call<{ library: { transcoder: string; name: string } }>('PATCH', path, { transcoder: 'svc' }, owner.token);
  t.is(toSvc.status, 200, JSON.stringify(toSvc.body));
  t.is(toSvc.body.library.transcoder, 'svc');
  t.is(toSvc.body.library.name, 'jellyfin server', 'what was not given is kept');
  const listed = await bed.call<{ libraries: Array<{ id: string; transcoder: string }> }>('GET', `/api/rooms/${roomId}/libraries`, undefined, owner.token);
  t.is(listed.body.libraries.find((entry) => entry.id === library.id)?.transcoder, 'svc');
  t.regex((await play(mediaId, owner)).sources[0]!.url, /^\/media\/transcode\//);

  const renamed = await bed.call<{ library: { transcoder: string; name: string } }>('PATCH', path, { transcoder: 'server', name: '  Films  ' }, owner.token);
  t.is(renamed.status, 200, JSON.stringify(renamed.body));
  t.deepEqual([renamed.body.library.transcoder, renamed.body.library.name], ['server', 'Films']);
  t.like((await play(mediaId, owner)).transcode, { by: 'server' });

  const empty = await bed.call<{ code: string }>('PATCH', path, {}, owner.token);
  t.is(empty.status, 400);
  const unknown = await bed.call<{ code: string }>('PATCH', path, { transcoder: 'gpu' }, owner.token);
  t.is(unknown.status, 400);
  const notAllowed = await bed.call<{ code: string }>('PATCH', path, { transcoder: 'svc' }, member.token);
  t.is(notAllowed.status, 403, 'a room library is edited with edit_room_settings');
});

test.serial('WebDAV and Alist libraries cannot be set to server: refused naming transcoder, nothing stored', async (t) => {
  for (const kind of ['webdav', 'alist']) {
    const refused = await connectRoomLibrary(bed, roomId, owner, { kind, name: kind, url: 'http://127.0.0.1:9/', username: 'alice', secret: 'pw', transcoder: 'server' });
    t.is(refused.status, 400, JSON.stringify(refused.body));
    t.deepEqual(
      refused.body.issues?.map((issue) => issue.key),
      ['transcoder'],
    );
    t.regex(refused.body.issues![0]!.message, /only Jellyfin and Emby/);
  }
  const listed = await bed.call<{ libraries: Array<{ kind: string }> }>('GET', `/api/rooms/${roomId}/libraries`, undefined, owner.token);
  t.false(listed.body.libraries.some((library) => library.kind === 'webdav' || library.kind === 'alist'));
});
