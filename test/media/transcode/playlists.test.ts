/**
 * The pure parts of the transcode (media/transcode/): the fixed timeline's arithmetic, the
 * playlists written from it, codec strings, the rung plan and the ffmpeg arguments it gives.
 */
import test from 'ava';
import { avcCodecString, aacCodecString, avcCodecOfInit } from '../../../media/transcode/codec-strings.js';
import { planRung, type TranscodeSource } from '../../../media/transcode/encode-plan.js';
import { encoderArgs } from '../../../media/transcode/encoder-args.js';
import { masterPlaylist, mediaPlaylist } from '../../../media/transcode/hls-playlists.js';
import { softwareEncoder } from '../../../media/transcode/hw-encoders.js';
import { segmentAt, segmentCount, segmentLength, segmentSecondsFor, segmentStart } from '../../../media/transcode/timeline.js';

const hevcSource: TranscodeSource = {
  url: 'http://127.0.0.1:1/media/token/movie.mkv',
  container: 'matroska',
  reach: { durationSeconds: 61.5, videoStream: 0, audioStream: 1, videoTreatment: 'convert', audioTreatment: 'convert', height: 1080 },
  facts: { width: 1920, height: 1080, hdr: 'pq' },
};

test('the timeline: D of 2 s for converted video, 6 s for copied; counts, positions and lengths', (t) => {
  t.is(segmentSecondsFor('convert'), 2);
  t.is(segmentSecondsFor('copy'), 6);
  t.is(segmentSecondsFor(null), 6);
  t.is(segmentCount(20, 2), 10);
  t.is(segmentCount(20.4, 2), 11);
  // A container that says a few ms (or a frame) more than the last cut: the encoder writes no
  // segment for that tail, so none is listed; it ends the segment before.
  t.is(segmentCount(60.005, 2), 30);
  t.is(segmentCount(20.04, 2), 10);
  t.true(Math.abs(segmentLength(29, 60.005, 2) - 2.005) < 1e-9, 'the last segment holds the tail');
  t.is(segmentLength(28, 60.005, 2), 2);
  t.is(segmentCount(0.5, 6), 1);
  t.is(segmentCount(0.05, 6), 1);
  t.is(segmentAt(0, 2), 0);
  t.is(segmentAt(1.999, 2), 0);
  t.is(segmentAt(2, 2), 1);
  t.is(segmentAt(12.0000000001, 6), 2);
  t.is(segmentAt(-1, 2), 0);
  t.is(segmentStart(7, 2), 14);
  t.is(segmentLength(0, 61.5, 6), 6);
  t.is(segmentLength(10, 61.5, 6), 1.5);
});

test('the media playlist lists every segment at its nominal length, the last one shorter', (t) => {
  const text = mediaPlaylist({ durationSeconds: 5.5, segmentSeconds: 2, initUrl: 'init.mp4', segmentUrl: (n) => `${n}.m4s` });
  t.is(
    text,
    [
      '#EXTM3U',
      '#EXT-X-VERSION:7',
      '#EXT-X-TARGETDURATION:2',
      '#EXT-X-MEDIA-SEQUENCE:0',
      '#EXT-X-PLAYLIST-TYPE:VOD',
      '#EXT-X-INDEPENDENT-SEGMENTS',
      '#EXT-X-MAP:URI="init.mp4"',
      '#EXTINF:2.000,',
      '0.m4s',
      '#EXTINF:2.000,',
      '1.m4s',
      '#EXTINF:1.500,',
      '2.m4s',
      '#EXT-X-ENDLIST',
      '',
    ].join('\n'),
  );
});

test('the master playlist offers one variant per rung', (t) => {
  const text = masterPlaylist([
    { url: '720p/index.m3u8', bandwidth: 4_360_000, resolution: { width: 1280, height: 720 }, codecs: 'avc1.64001f,mp4a.40.2' },
    { url: 'audio/index.m3u8', bandwidth: 160_000, codecs: 'mp4a.40.2' },
  ]);
  t.is(
    text,
    [
      '#EXTM3U',
      '#EXT-X-VERSION:7',
      '#EXT-X-INDEPENDENT-SEGMENTS',
      '#EXT-X-STREAM-INF:BANDWIDTH=4360000,RESOLUTION=1280x720,CODECS="avc1.64001f,mp4a.40.2"',
      '720p/index.m3u8',
      '#EXT-X-STREAM-INF:BANDWIDTH=160000,CODECS="mp4a.40.2"',
      'audio/index.m3u8',
      '',
    ].join('\n'),
  );
});

test('codec strings from ffprobe profiles and levels, and from an avcC', (t) => {
  t.is(avcCodecString('High', 31), 'avc1.64001f');
  t.is(avcCodecString('Main', 40), 'avc1.4d0028');
  t.is(avcCodecString('Constrained Baseline', 30), 'avc1.42c01e');
  t.is(avcCodecString('Something', 30), undefined);
  t.is(aacCodecString(), 'mp4a.40.2');
  t.is(aacCodecString('HE-AAC'), 'mp4a.40.5');
  const avcC = Buffer.concat([Buffer.from([0, 0, 0, 20]), Buffer.from('avcC'), Buffer.from([1, 0x64, 0x00, 0x28, 0xff])]);
  t.is(avcCodecOfInit(avcC), 'avc1.640028');
  t.is(avcCodecOfInit(Buffer.from('no such box')), undefined);
});

test('a converted rung: the height, its bitrate and level, 16:9 width, AAC stereo, and the variant', (t) => {
  const plan = planRung(hevcSource, { height: 720 });
  t.is(plan.name, '720p');
  t.is(plan.segmentSeconds, 2);
  t.is(plan.segmentCount, 31);
  t.like(plan.video, { treatment: 'convert', stream: 0, width: 1280, height: 720, bitrateKbps: 2800, level: 31, hdr: 'pq', burnSubtitle: null });
  t.like(plan.audio, { treatment: 'convert', stream: 1, bitrateKbps: 160, sampleRate: 48_000 });
  t.deepEqual(plan.variant, { bandwidth: 4_200_000 + 160_000, resolution: { width: 1280, height: 720 }, codecs: 'avc1.64001f,mp4a.40.2' });
  t.deepEqual(plan.input.slice(0, 6), ['-protocol_whitelist', 'http,tcp', '-format_whitelist', 'matroska', '-f', 'matroska']);
  t.throws(() => planRung({ ...hevcSource, reach: { ...hevcSource.reach, durationSeconds: null } }), { message: /no known duration/ });
});

test('a copied rung takes its CODECS from the source profile and level', (t) => {
  const plan = planRung({
    ...hevcSource,
    reach: { ...hevcSource.reach, videoTreatment: 'copy' },
    facts: { width: 1920, height: 1080, profile: 'High', level: 40, videoBitrate: 6_000_000 },
  });
  t.is(plan.name, 'copy');
  t.is(plan.segmentSeconds, 6);
  t.deepEqual(plan.variant, { bandwidth: 6_160_000, resolution: { width: 1920, height: 1080 }, codecs: 'avc1.640028,mp4a.40.2' });
});

test('the arguments of a run from segment s: input seek, the timeline offset, keyframes on it, the HLS muxer', (t) => {
  const plan = planRung(hevcSource, { height: 720, burnSubtitle: 3 });
  const args = encoderArgs(plan, { startSegment: 5, folder: '/tmp/rung', initName: 'init-5.mp4', encoder: softwareEncoder(2), zscale: true });
  const after = (flag: string) => args[args.indexOf(flag) + 1];
  t.true(args.indexOf('-ss') < args.indexOf('-i'));
  t.is(after('-ss'), '10');
  t.is(after('-output_ts_offset'), '10');
  t.is(after('-force_key_frames:v'), 'expr:gte(t,n_forced*2)');
  t.is(after('-start_number'), '5');
  t.is(after('-hls_time'), '2');
  t.is(after('-hls_flags'), 'independent_segments+temp_file');
  t.is(after('-hls_segment_type'), 'fmp4');
  t.is(after('-hls_segment_filename'), '/tmp/rung/%d.m4s');
  t.is(after('-hls_segment_options'), 'movflags=+frag_discont:video_track_timescale=48000');
  t.is(after('-preset'), 'superfast');
  t.is(after('-level:v'), '3.1');
  const graph = after('-filter_complex') ?? '';
  t.regex(graph, /tonemap=tonemap=hable/);
  t.regex(graph, /\[0:3\]scale=1280:720\[subs\]/);
  t.regex(graph, /overlay/);
  const plain = encoderArgs(planRung({ ...hevcSource, facts: { width: 1920, height: 1080 } }, { height: 720 }), { startSegment: 0, folder: '/tmp/rung', initName: 'init-0.mp4', encoder: softwareEncoder(2), zscale: true });
  t.false(plain.includes('-ss'), 'a run from 0 does not seek');
  t.notRegex(plain[plain.indexOf('-filter_complex') + 1] ?? '', /tonemap/);
});

test('libx264 presets follow the cores', (t) => {
  t.regex(softwareEncoder(1).label, /superfast/);
  t.regex(softwareEncoder(2).label, /superfast/);
  t.regex(softwareEncoder(4).label, /veryfast/);
  t.regex(softwareEncoder(8).label, /faster/);
  t.regex(softwareEncoder(64).label, /fast\b/);
});
