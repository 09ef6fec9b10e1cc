/**
 * How an item reaches browsers, in the words the playlist, the add-media form and the player
 * use (web/src/player/reach-words.ts): nothing for an item that plays as it is or is not known
 * yet, a short line for the others, the why and the source's streams under it, and the
 * player's line with the rung in use or why no transcoder took the item.
 */
import test from 'ava';
import { heightsText, reachBlockers, reachDetails, reachLine, refusedLine, transcodeLine, type ReachWords } from '../../../web/src/player/reach-words.js';

const reach = (change: Partial<ReachWords>): ReachWords => ({ how: 'direct', blockers: [], heights: [], video: 'H.264 High, 1920×1080', audio: 'AAC stereo', imageSubtitles: [], ...change });

const hevc = reach({
  how: 'video',
  blockers: [
    { kind: 'video', name: 'HEVC 10-bit' },
    { kind: 'audio', name: 'E-AC3' },
  ],
  heights: [1080, 720, 480],
  video: 'HEVC Main 10, 1920×1080, HDR10',
  audio: 'E-AC3 5.1',
});

test('an item that plays as it is, or is not checked yet, gets no line', (t) => {
  t.is(reachLine(null), null);
  t.is(reachLine(reach({ how: 'direct' })), null);
});

test('each other way has its line', (t) => {
  t.is(reachLine(reach({ how: 'remux', blockers: [{ kind: 'container', name: 'Matroska' }] })), 'Container converted for browsers');
  t.is(reachLine(reach({ how: 'audio', audio: 'E-AC3 5.1' })), 'Audio converted for browsers (E-AC3 5.1 → AAC)');
  t.is(reachLine(reach({ how: 'audio', audio: null })), 'Audio converted for browsers');
  t.is(reachLine(hevc), 'Converted to 1080p / 720p / 480p');
  t.is(reachLine(reach({ how: 'video', heights: [] })), 'Video converted for browsers');
  t.is(heightsText([720]), '720p');
});

test('the detail says what browsers cannot take, the streams, and the image subtitles', (t) => {
  t.is(reachBlockers(hevc), 'Browsers cannot play: HEVC 10-bit video, E-AC3 audio');
  t.is(reachBlockers(reach({ how: 'remux', blockers: [{ kind: 'container', name: 'AVI' }] })), 'Browsers cannot play: AVI container');
  t.is(reachBlockers(reach({})), null);
  const subtitle = { index: 3, codec: 'hdmv_pgs_subtitle', language: 'eng', title: null };
  t.deepEqual(reachDetails({ ...hevc, imageSubtitles: [subtitle, { ...subtitle, index: 4 }] }), [
    'Browsers cannot play: HEVC 10-bit video, E-AC3 audio',
    'Video: HEVC Main 10, 1920×1080, HDR10',
    'Audio: E-AC3 5.1',
    '2 image subtitle tracks (can be burned in)',
  ]);
  t.deepEqual(reachDetails(reach({ how: 'audio', video: null, audio: null, imageSubtitles: [subtitle] })), ['1 image subtitle track (can be burned in)']);
});

test('the player says what the transcode does, with the rung in use', (t) => {
  t.is(transcodeLine({ how: 'remux', heights: [1080] }, null), 'Container converted for browsers');
  t.is(transcodeLine({ how: 'audio', heights: [1080] }, null), 'Audio converted for browsers');
  t.is(transcodeLine({ how: 'video', heights: [1080, 720, 480] }, { current: 720, auto: true }), 'Converted: 720p (auto)');
  t.is(transcodeLine({ how: 'video', heights: [1080, 720, 480] }, { current: 480, auto: false }), 'Converted: 480p');
  t.is(transcodeLine({ how: 'video', heights: [1080, 720, 480] }, { current: null, auto: true }), 'Converted to 1080p / 720p / 480p', 'before a rung plays');
  t.is(transcodeLine({ how: 'video', heights: [1080, 720] }, null), 'Converted to 1080p / 720p', "Safari's own HLS: no level API");
  t.is(transcodeLine({ how: 'video', heights: [] }, null), 'Video converted for browsers');
});

test('a refusal is said once, with one full stop', (t) => {
  t.is(refusedLine('Every transcoder is busy.'), 'Could not convert this item: Every transcoder is busy. Playing it as it is.');
  t.is(refusedLine('no transcoder is running'), 'Could not convert this item: no transcoder is running. Playing it as it is.');
});
