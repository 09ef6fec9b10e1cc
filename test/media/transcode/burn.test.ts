/**
 * Burned variants as the gateway names and writes them (media/transcode/burn.ts, ladder.ts):
 * which streams may be burned in, the names of masters and rungs, the burned reach of copied
 * video (one rung at the source height, capped) and of converted video (its own ladder), and
 * the master playlist of a burned variant.
 */
import test from 'ava';
import type { MediaReach } from '../../../contracts/room/reach.js';
import { isAppError } from '../../../errors/index.js';
import { burnableOf, burnedReach, masterName, parseMasterName, parseRungName, requireBurnable, rungName } from '../../../media/transcode/burn.js';
import { masterPlaylistOf, rungPlaylistOf, transcodeRungs } from '../../../media/transcode/ladder.js';

const pgs = { index: 2, codec: 'hdmv_pgs_subtitle', language: 'eng', title: 'Signs' };
const remux: MediaReach = {
  how: 'remux',
  container: 'matroska',
  video: 'H.264 High, 1920×1080',
  audio: 'AAC stereo',
  blockers: [{ kind: 'container', name: 'Matroska' }],
  height: 1080,
  heights: [],
  durationSeconds: 12,
  videoStream: 0,
  audioStream: 1,
  videoTreatment: 'copy',
  audioTreatment: 'copy',
  imageSubtitles: [pgs],
  facts: { width: 1920, height: 1080, frameRate: 25, profile: 'High', level: 40, hdr: null, videoBitrate: null, audioSampleRate: 48_000, audioProfile: 'LC' },
};

test('burnable: the picture subtitles of a transcoded item with video; none when it plays as it is', (t) => {
  t.deepEqual(burnableOf(remux), [pgs]);
  t.deepEqual(burnableOf({ ...remux, how: 'direct' }), []);
  t.deepEqual(burnableOf({ ...remux, videoStream: null }), []);
  t.is(requireBurnable(remux, 2), pgs);
  const error = t.throws(() => requireBurnable(remux, 3));
  t.true(isAppError(error) && error.code === 'not_found');
  t.is(error?.message, 'this transcode has no picture subtitle stream s3 to burn in; it has s2');
  t.regex(t.throws(() => requireBurnable({ ...remux, imageSubtitles: [] }, 2))?.message ?? '', /it has no picture subtitles that can be burned in/);
});

test('names: master-s<index>.m3u8 and <height>-s<index>, parsed back; anything else is none', (t) => {
  t.is(masterName(undefined), 'master.m3u8');
  t.is(masterName(2), 'master-s2.m3u8');
  t.deepEqual(parseMasterName('master.m3u8'), { burn: undefined });
  t.deepEqual(parseMasterName('master-s12.m3u8'), { burn: 12 });
  for (const name of ['master-s.m3u8', 'master-s02.m3u8', 'master-x2.m3u8', 'index.m3u8', 'master.m3u8.bak']) t.is(parseMasterName(name), null, name);
  t.is(rungName(720, undefined), '720');
  t.is(rungName(720, 2), '720-s2');
  t.deepEqual(parseRungName('0'), { rung: 0, burn: undefined });
  t.deepEqual(parseRungName('720-s2'), { rung: 720, burn: 2 });
  for (const name of ['720-s', '720s2', '-s2', '0720', '720-s2-s3', 'abc']) t.is(parseRungName(name), null, name);
});

test('copied video burns on one converted rung at the source height, capped; converted video on its own ladder', (t) => {
  const burned = burnedReach(remux, 720);
  t.like(burned, { videoTreatment: 'convert', heights: [720], audioTreatment: 'copy' });
  t.deepEqual(transcodeRungs(burned), [720]);
  t.deepEqual(burnedReach(remux, 2160).heights, [1080], 'never upscaled');
  const converted: MediaReach = { ...remux, how: 'video', videoTreatment: 'convert', heights: [1080, 720, 480] };
  t.is(burnedReach(converted, 720), converted);

  const master = masterPlaylistOf(burned, 2);
  t.regex(master, /RESOLUTION=1280x720,CODECS="avc1\.64[0-9a-f]{4},mp4a\.40\.2"\n720-s2\/index\.m3u8\n/);
  t.regex(masterPlaylistOf(converted, 2), /\n1080-s2\/index\.m3u8\n[^]*\n720-s2\/index\.m3u8\n[^]*\n480-s2\/index\.m3u8\n/);
  t.regex(masterPlaylistOf(remux), /\n0\/index\.m3u8\n/, 'the plain master is as it was');
  t.is(rungPlaylistOf(burned).match(/^#EXTINF:2\.0\d\d,$/gm)?.length, 6, 'the burned rung is on the converted timeline (D = 2 s)');
  t.is(rungPlaylistOf(remux).match(/^#EXTINF:6\.0\d\d,$/gm)?.length, 2, 'the copied rung keeps 6 s');
});
