/**
 * The subtitle streams of a library server become tracks of items added from it: a Jellyfin
 * library (its stand-in, every request checked against the API description) offers a film's
 * embedded and external text tracks, players get them as WebVTT through this server (which
 * sends the library's token, never handing it out), and the image-based track is not offered.
 */
import test from 'ava';
import { EMBEDDED_CUE, EXTERNAL_CUE, startMediaBrowserStandin, type MediaBrowserStandin } from '../../fixtures/media-browser-standin.js';
import type { GatewayBed, Member } from '../../gateways/bed.js';
import { createRoom, join, startMediaBed } from '../media-bed.js';
import { addFromLibrary, connectRoomLibrary } from './library-bed.js';

let bed: GatewayBed;
let standin: MediaBrowserStandin;
let owner: Member;
let member: Member;
let roomId: string;

test.before(async () => {
  standin = await startMediaBrowserStandin('jellyfin');
  bed = await startMediaBed('media-library-subtitles');
  owner = await bed.signUp('owner');
  member = await bed.signUp('member');
  roomId = await createRoom(bed, owner);
  await join(bed, roomId, member);
});
test.after.always(async () => {
  await bed?.close();
  await standin?.close();
});

test('a Jellyfin film\'s text tracks are the item\'s tracks, served as WebVTT to members; its token is in no answer', async (t) => {
  const connected = await connectRoomLibrary(bed, roomId, owner, { kind: 'jellyfin', name: 'Jellyfin', url: standin.url, username: '', secret: standin.apiKey });
  t.is(connected.status, 201, JSON.stringify(connected.body));
  const added = await addFromLibrary(bed, roomId, connected.body.library.id, owner, { entryId: standin.ids.movie, folder: false });
  t.is(added.status, 201, JSON.stringify(added.body));
  t.is(added.body.added[0]!.item.title, 'Test Pattern', 'the library\'s name for it');
  const mediaId = added.body.added[0]!.item.id;

  const listed = await bed.call<{ tracks: Array<{ id: string; name: string; language?: string; format: string; source: string }> }>('GET', `/api/rooms/${roomId}/playlist/${mediaId}/subtitles`, undefined, member.token);
  t.is(listed.status, 200, JSON.stringify(listed.body));
  const tracks = listed.body.tracks;
  t.deepEqual(
    tracks.map((track) => [track.id, track.format, track.source]),
    [
      ['p0', 'vtt', 'provider'],
      ['p1', 'vtt', 'provider'],
    ],
    'the embedded and the external text track; the PGS one is image-based and left out, and the file is not searched again',
  );
  const texts: string[] = [];
  for (const track of tracks) {
    const answer = await bed.call<{ format: string; text: string }>('GET', `/api/rooms/${roomId}/playlist/${mediaId}/subtitles/${track.id}`, undefined, member.token);
    t.is(answer.status, 200);
    t.is(answer.body.format, 'vtt');
    t.true(answer.body.text.startsWith('WEBVTT'));
    texts.push(answer.body.text);
  }
  t.true(texts.some((text) => text.includes(EMBEDDED_CUE)));
  t.true(texts.some((text) => text.includes(EXTERNAL_CUE)));
  t.false(JSON.stringify([connected.body, added.body, listed.body]).includes(standin.apiKey), 'the API key is in no answer');
  const missing = await bed.call('GET', `/api/rooms/${roomId}/playlist/${mediaId}/subtitles/p9`, undefined, member.token);
  t.is(missing.status, 404);
  t.deepEqual(standin.violations(), []);
});
