/**
 * The room's rules for media that cannot seek (actors/room/seek-check.ts), with a probe that
 * answers by the URL (the real probe against real upstreams: test/media/seek-probe.test.ts):
 * a seek is refused with a message naming why, a restart from 0 is allowed, and play or pause
 * keep the room's own position instead of jumping to the one a sender names.
 */
import test from 'ava';
import type { MediaItem } from '../../../contracts/room/model.js';
import type { ProbedSeekable, SeekProbe } from '../../../actors/room/index.js';
import type { MediaReach } from '../../../contracts/room/reach.js';
import { waitFor } from '../../fixtures/deadline.js';
import { RoomTestBed, TestClock, rejects, uid, user, type TestRoom } from './fixtures.js';

/** What the transcoder pool would say of an HEVC file: its video is converted. */
const hevc: MediaReach = {
  how: 'video',
  container: 'matroska',
  video: 'HEVC Main 10, 1920×1080',
  audio: 'E-AC3 5.1',
  blockers: [{ kind: 'video', name: 'HEVC 10-bit' }, { kind: 'audio', name: 'E-AC3' }],
  height: 1080,
  heights: [1080, 720, 480],
  durationSeconds: 600,
  videoStream: 0,
  audioStream: 1,
  videoTreatment: 'convert',
  audioTreatment: 'convert',
  imageSubtitles: [],
  facts: { width: 1920, height: 1080, frameRate: 24, profile: 'Main 10', level: 120, hdr: null, videoBitrate: null, audioSampleRate: 48000, audioProfile: null },
};

/** `no` for URLs under /whole/, `yes` otherwise; the HEVC reach for .mkv URLs, none otherwise. */
const probe: SeekProbe = {
  initial: () => 'checking',
  probe: (item: MediaItem): Promise<ProbedSeekable> => Promise.resolve(item.url.includes('/whole/') ? 'no' : 'yes'),
  reach: (item: MediaItem) => Promise.resolve(item.url.endsWith('.mkv') ? hevc : null),
};

let bed: RoomTestBed;
test.before(async () => {
  bed = await RoomTestBed.start('room_seekable', { seekProbe: probe });
});
test.after.always(async () => {
  await bed?.close();
});

const owner = user('owner-seekable', 'Owner');

/** A room playing `url` from 0, its check settled. */
async function playing(url: string): Promise<{ room: TestRoom; clock: TestClock; item: MediaItem }> {
  const clock = new TestClock();
  const room = await bed.activate(uid('room'), { clock });
  await room.send(owner, { kind: 'room.create', name: 'Cinema', visibility: 'public' });
  const { item } = await room.send(owner, { kind: 'playlist.push', title: 'Film', url });
  const checked = await waitFor('the seek check', () => Promise.resolve(room.events('playlist').flatMap((e) => (e.op === 'edited' && e.item.id === item.id ? [e.item] : []))[0]), 5000, 10);
  await room.send(owner, { kind: 'playlist.setCurrent', mediaId: item.id });
  await room.send(owner, { kind: 'playback.play' });
  return { room, clock, item: checked };
}

test('a seek in media that cannot seek is refused, naming why; a restart from 0 is allowed', async (t) => {
  const { room, clock, item } = await playing('https://media.example.com/whole/film.mp4');
  t.is(item.seekable, 'no');
  clock.advance(60_000);
  await rejects(t, room.send(owner, { kind: 'playback.seek', position: 120 }), 'conflict', /"Film" cannot seek: its server does not answer range requests/);
  const { playback } = await room.send(owner, { kind: 'playback.seek', position: 0 });
  t.is(playback.position, 0);
});

test('pause and play in media that cannot seek keep the room\'s position, not the one a sender names', async (t) => {
  const { room, clock } = await playing('https://media.example.com/whole/film.mp4');
  clock.advance(60_000);
  const paused = await room.send(owner, { kind: 'playback.pause', position: 300 });
  t.false(paused.playback.playing);
  t.is(paused.playback.position, 60);
  const resumed = await room.send(owner, { kind: 'playback.play', position: 500 });
  t.true(resumed.playback.playing);
  t.is(resumed.playback.position, 60);
});

test('seekable media seeks as before', async (t) => {
  const { room, item } = await playing('https://media.example.com/ranged/film.mp4');
  t.is(item.seekable, 'yes');
  const { playback } = await room.send(owner, { kind: 'playback.seek', position: 120 });
  t.is(playback.position, 120);
});

test('a probe answer for a URL since edited is not recorded', async (t) => {
  const clock = new TestClock();
  const room = await bed.activate(uid('room'), { clock });
  await room.send(owner, { kind: 'room.create', name: 'Cinema', visibility: 'public' });
  const { item } = await room.send(owner, { kind: 'playlist.push', title: 'Film', url: 'https://media.example.com/whole/a.mp4' });
  // Forged result for an old URL, as a late probe would deliver it.
  const stale = await room.sendRaw({ userId: 'runtime', service: true }, { kind: 'room.seekable', mediaId: item.id, url: 'https://old.example.com/x.mp4', seekable: 'yes' }, { scheduled: true });
  t.deepEqual(stale, { recorded: false });
  await rejects(t, room.sendRaw(owner, { kind: 'room.seekable', mediaId: item.id, url: item.url, seekable: 'yes' }), 'forbidden', /internal/);
});

test('how an item reaches browsers is recorded when it is added, kept across activations, and forgotten when its URL changes', async (t) => {
  const room = await bed.activate(uid('room'), { clock: new TestClock() });
  await room.send(owner, { kind: 'room.create', name: 'Cinema', visibility: 'public' });
  const { item } = await room.send(owner, { kind: 'playlist.push', title: 'Film', url: 'https://media.example.com/ranged/film.mkv' });
  t.is(item.reach, null, 'not known until probed');
  const edited = (r: TestRoom, test: (item: MediaItem) => boolean) =>
    waitFor('the edited item', () => Promise.resolve(r.events('playlist').flatMap((e) => (e.op === 'edited' && e.item.id === item.id && test(e.item) ? [e.item] : []))[0]), 5000, 10);
  t.deepEqual((await edited(room, (i) => i.reach !== null)).reach, hevc);

  await room.deactivate();
  const again = await bed.activate(room.id, { clock: new TestClock() });
  const view = await again.send(owner, { kind: 'room.get' });
  if (view.access !== 'member') return t.fail('the owner is a member');
  t.deepEqual(view.playlist?.find((entry) => entry.id === item.id)?.reach, hevc, 'the playlist says it after a passivation');

  const { item: repointed } = await again.send(owner, { kind: 'playlist.edit', mediaId: item.id, url: 'https://media.example.com/ranged/film.mp4' });
  t.is(repointed.reach, null, 'another file: not known until probed');
  await edited(again, (i) => i.url.endsWith('.mp4') && i.seekable !== 'checking');
  // A late answer for the old URL is not recorded over the new one.
  const stale = await again.sendRaw({ userId: 'runtime', service: true }, { kind: 'room.reach', mediaId: item.id, url: 'https://media.example.com/ranged/film.mkv', reach: hevc }, { scheduled: true });
  t.deepEqual(stale, { recorded: false });
  const after = await again.send(owner, { kind: 'room.get' });
  if (after.access !== 'member') return t.fail('the owner is a member');
  t.is(after.playlist?.find((entry) => entry.id === item.id)?.reach, null);
});
