/**
 * How an item reaches browsers, from hand-built profiles (media/transcode/reach.ts): the edges
 * the fixtures do not reach (the height ladder and its cap, HDR and 10-bit codecs browsers do
 * or do not take, cover art, files without video or without audio, which audio stream is
 * played, codecs that fit a container or not). Probed files are in probe.test.ts.
 */
import test from 'ava';
import type { AudioProfile, MediaProfile, VideoProfile } from '../../../media/transcode/media-profile.js';
import { ladderOf, reachOf } from '../../../media/transcode/reach.js';

const video = (fields: Partial<VideoProfile> = {}): VideoProfile => ({ index: 0, codec: 'h264', profile: 'High', level: 40, bitDepth: 8, chroma: '4:2:0', hdr: null, width: 1920, height: 1080, frameRate: 24, ...fields });
const audio = (fields: Partial<AudioProfile> = {}): AudioProfile => ({ index: 1, codec: 'aac', profile: 'LC', channels: 2, layout: 'stereo', language: null, default: true, ...fields });
const profile = (fields: Partial<MediaProfile> = {}): MediaProfile => ({ container: 'mov', docType: null, durationSeconds: 60, bitRate: 4_000_000, video: video(), audio: [audio()], subtitles: [], ...fields });

test('the ladder: the source height capped, then 1080, 720 and 480 below it, never upscaled', (t) => {
  t.deepEqual(ladderOf(2160, 1080), [1080, 720, 480]);
  t.deepEqual(ladderOf(2160, 2160), [2160, 1080, 720, 480]);
  t.deepEqual(ladderOf(1080, 2160), [1080, 720, 480]);
  t.deepEqual(ladderOf(800, 1080), [800, 720, 480]);
  t.deepEqual(ladderOf(480, 1080), [480]);
  t.deepEqual(ladderOf(360, 1080), [360]);
});

test('a 4K HEVC 10-bit HDR10 file: video converted to the capped ladder, tone-mapped by the encoder (the words say HDR10)', (t) => {
  const hevc = video({ codec: 'hevc', profile: 'Main 10', bitDepth: 10, hdr: 'HDR10', width: 3840, height: 2160 });
  const capped = reachOf(profile({ container: 'matroska', docType: 'matroska', video: hevc, audio: [audio({ codec: 'eac3', profile: null, channels: 6, layout: '5.1(side)' })] }), { maxHeight: 1080 });
  t.like(capped, { how: 'video', video: 'HEVC Main 10, 3840×2160, HDR10', audio: 'E-AC3 5.1', height: 2160, videoTreatment: 'convert', audioTreatment: 'convert' });
  t.deepEqual(capped.heights, [1080, 720, 480]);
  t.deepEqual(reachOf(profile({ video: hevc }), { maxHeight: 2160 }).heights, [2160, 1080, 720, 480]);
});

test('video codecs: H.264 8-bit 4:2:0, VP8, VP9 profile 0 and AV1 up to 10-bit are copied; the others converted and named', (t) => {
  const how = (fields: Partial<VideoProfile>, container = 'mov') => {
    const reached = reachOf(profile({ container, docType: container === 'matroska' ? 'webm' : null, video: video(fields), audio: [audio({ codec: 'opus', profile: null })] }), { maxHeight: 1080 });
    return [reached.how, reached.blockers.find((blocker) => blocker.kind === 'video')?.name ?? null];
  };
  t.deepEqual(how({}), ['direct', null]);
  t.deepEqual(how({ codec: 'vp8', profile: null }, 'matroska'), ['direct', null]);
  t.deepEqual(how({ codec: 'vp9', profile: 'Profile 0' }, 'matroska'), ['direct', null]);
  t.deepEqual(how({ codec: 'av1', profile: 'Main', bitDepth: 10, hdr: 'HDR10' }), ['direct', null]);
  t.deepEqual(how({ codec: 'h264', profile: 'High 10', bitDepth: 10 }), ['video', 'H.264 10-bit']);
  t.deepEqual(how({ codec: 'h264', profile: 'High 4:2:2', chroma: '4:2:2' }), ['video', 'H.264 4:2:2']);
  t.deepEqual(how({ codec: 'vp9', profile: 'Profile 2', bitDepth: 10 }, 'matroska'), ['video', 'VP9 10-bit']);
  t.deepEqual(how({ codec: 'av1', profile: 'Professional', bitDepth: 12 }), ['video', 'AV1 12-bit']);
  t.deepEqual(how({ codec: 'hevc', profile: 'Main' }), ['video', 'HEVC']);
  t.deepEqual(how({ codec: 'mpeg2video', profile: 'Main' }), ['video', 'MPEG-2']);
  t.deepEqual(how({ codec: 'vc1', profile: 'Advanced' }), ['video', 'VC-1']);
  t.deepEqual(how({ codec: 'wmv3', profile: 'Main' }), ['video', 'WMV9']);
});

test('audio codecs: AAC LC/HE copied into a transcode; MP3, Opus, Vorbis and FLAC play as they are but are converted in one; AC3, E-AC3, DTS, TrueHD, MP2, WMA and PCM converted', (t) => {
  const how = (fields: Partial<AudioProfile>) => {
    const reached = reachOf(profile({ container: 'matroska', docType: 'matroska', audio: [audio(fields)] }), { maxHeight: 1080 });
    return [reached.how, reached.audio, reached.blockers.find((blocker) => blocker.kind === 'audio')?.name ?? null, reached.audioTreatment];
  };
  t.deepEqual(how({ profile: 'HE-AAC' }), ['remux', 'AAC HE-AAC stereo', null, 'copy']);
  // Browsers play them, but not from a transcode's fMP4 everywhere: converted, with no blocker named.
  t.deepEqual(how({ codec: 'flac', profile: null, channels: 6, layout: '5.1' }), ['audio', 'FLAC 5.1', null, 'convert']);
  t.deepEqual(how({ codec: 'vorbis', profile: null, channels: 1, layout: 'mono' }), ['audio', 'Vorbis mono', null, 'convert']);
  t.deepEqual(how({ codec: 'mp3', profile: null }), ['audio', 'MP3 stereo', null, 'convert']);
  t.deepEqual(how({ codec: 'truehd', profile: null, channels: 8, layout: '7.1' }), ['audio', 'TrueHD 7.1', 'TrueHD', 'convert']);
  t.deepEqual(how({ codec: 'dts', profile: 'DTS-HD MA', channels: 6, layout: '5.1(side)' }), ['audio', 'DTS-HD MA 5.1', 'DTS-HD MA', 'convert']);
  t.deepEqual(how({ codec: 'pcm_s16le', profile: null }), ['audio', 'PCM stereo', 'PCM', 'convert']);
  t.deepEqual(how({ codec: 'wmav2', profile: null }), ['audio', 'WMA stereo', 'WMA', 'convert']);
});

test('the default audio stream is played, else the first', (t) => {
  const tracks = [audio({ index: 1, codec: 'ac3', default: false, language: 'eng' }), audio({ index: 2, codec: 'aac', default: true, language: 'fre' })];
  t.like(reachOf(profile({ audio: tracks }), { maxHeight: 1080 }), { how: 'direct', audioStream: 2, audio: 'AAC stereo' });
  const undecided = tracks.map((track) => ({ ...track, default: false }));
  t.like(reachOf(profile({ audio: undecided }), { maxHeight: 1080 }), { how: 'audio', audioStream: 1, audio: 'AC3 stereo' });
});

test('no video: an audio file plays as it is; no audio: a silent video', (t) => {
  const song = reachOf(profile({ container: 'flac', video: null, audio: [audio({ index: 0, codec: 'flac', profile: null })] }), { maxHeight: 1080 });
  t.like(song, { how: 'direct', video: null, height: null, videoStream: null, videoTreatment: null, audioStream: 0, audioTreatment: 'copy' });
  t.deepEqual(song.heights, []);
  const wav = reachOf(profile({ container: 'wav', video: null, audio: [audio({ index: 0, codec: 'pcm_s16le', profile: null })] }), { maxHeight: 1080 });
  t.is(wav.how, 'direct', 'PCM plays from a WAV file');
  const silent = reachOf(profile({ container: 'avi', video: video({ codec: 'mpeg4', profile: 'Advanced Simple Profile', height: 720, width: 1280 }), audio: [] }), { maxHeight: 1080 });
  t.like(silent, { how: 'video', audio: null, audioStream: null, audioTreatment: null, videoTreatment: 'convert' });
  t.deepEqual(silent.heights, [720, 480]);
  t.deepEqual(silent.blockers, [{ kind: 'container', name: 'AVI' }, { kind: 'video', name: 'MPEG-4 Part 2' }]);
});

test('cover art is no video: the profile has none, and the audio plays as it is', (t) => {
  const reached = reachOf(profile({ container: 'mp3', video: null, audio: [audio({ index: 0, codec: 'mp3', profile: null })] }), { maxHeight: 1080 });
  t.like(reached, { how: 'direct', video: null });
});

test('browser codecs in a container they do not belong in are remuxed, the container named; Matroska and MPEG-TS always are', (t) => {
  const h264InWebm = reachOf(profile({ container: 'matroska', docType: 'webm' }), { maxHeight: 1080 });
  t.like(h264InWebm, { how: 'remux', container: 'webm' });
  t.deepEqual(h264InWebm.blockers, [{ kind: 'container', name: 'WebM' }]);
  t.deepEqual(reachOf(profile({ container: 'mpegts' }), { maxHeight: 1080 }).blockers, [{ kind: 'container', name: 'MPEG-TS' }]);
  const opusInOgg = reachOf(profile({ container: 'ogg', video: null, audio: [audio({ codec: 'opus', profile: null })] }), { maxHeight: 1080 });
  t.is(opusInOgg.how, 'direct');
});

test('image subtitles are listed for burning in; text ones are not', (t) => {
  const reached = reachOf(
    profile({
      container: 'matroska',
      docType: 'matroska',
      subtitles: [
        { index: 2, codec: 'hdmv_pgs_subtitle', kind: 'image', language: 'eng', title: null },
        { index: 3, codec: 'subrip', kind: 'text', language: 'eng', title: null },
        { index: 4, codec: 'dvd_subtitle', kind: 'image', language: null, title: 'Forced' },
      ],
    }),
    { maxHeight: 1080 },
  );
  t.deepEqual(reached.imageSubtitles, [
    { index: 2, codec: 'hdmv_pgs_subtitle', language: 'eng', title: null },
    { index: 4, codec: 'dvd_subtitle', language: null, title: 'Forced' },
  ]);
});
