/**
 * How an item's media reaches browsers (contracts/room/reach.ts), decided from its probed
 * profile (media/transcode/media-profile.ts): played as it is, remuxed (the container changes,
 * video and audio are copied into HLS fMP4), its audio converted, or its video converted to a
 * ladder of heights. docs/2026-11-29-how-items-reach-browsers.md has the table.
 *
 * "Browsers" is the common ground of Chromium, Firefox and Safari as the web client's players
 * (hls.js over MSE, the native video element) see them; a codec one engine lacks is converted
 * for everyone, since a room watches together. Converted audio is AAC stereo: the one audio
 * every engine decodes through MSE; multichannel AAC is not common ground (engines differ in
 * what they take and how they map channels), and a room listens on headphones and laptop
 * speakers, where a 5.1 mix is downmixed anyway. Converted HDR video is tone-mapped to SDR by
 * the encoder side: no browser of the three shows HDR from hls.js alike.
 */
import type { Blocker, ImageSubtitle, MediaReach } from '../../contracts/room/reach.js';
import type { AudioProfile, MediaProfile, VideoProfile } from './media-profile.js';

export interface ReachOptions {
  /** The tallest converted height offered (the operator's ceiling). */
  maxHeight: number;
}

/** The rungs below the top of a converted ladder. */
const LADDER = [1080, 720, 480];

const VIDEO_NAMES: Record<string, string> = {
  h264: 'H.264', hevc: 'HEVC', vp8: 'VP8', vp9: 'VP9', av1: 'AV1', mpeg1video: 'MPEG-1', mpeg2video: 'MPEG-2', mpeg4: 'MPEG-4 Part 2',
  msmpeg4v2: 'MS MPEG-4 v2', msmpeg4v3: 'MS MPEG-4 v3', vc1: 'VC-1', wmv1: 'WMV7', wmv2: 'WMV8', wmv3: 'WMV9', theora: 'Theora',
  mjpeg: 'Motion JPEG', prores: 'ProRes', dnxhd: 'DNxHD', h263: 'H.263', flv1: 'Sorenson Spark', rv40: 'RealVideo 4',
};

const AUDIO_NAMES: Record<string, string> = {
  aac: 'AAC', mp3: 'MP3', opus: 'Opus', vorbis: 'Vorbis', flac: 'FLAC', ac3: 'AC3', eac3: 'E-AC3', dts: 'DTS', truehd: 'TrueHD',
  mp2: 'MP2', mp1: 'MP1', wmav1: 'WMA', wmav2: 'WMA', wmapro: 'WMA Pro', alac: 'ALAC', amr_nb: 'AMR', cook: 'RealAudio',
};

const CONTAINER_NAMES: Record<string, string> = {
  mov: 'MP4', matroska: 'Matroska', webm: 'WebM', avi: 'AVI', mpegts: 'MPEG-TS', ogg: 'Ogg', mp3: 'MP3', flac: 'FLAC', wav: 'WAV', aac: 'AAC',
};

/** AAC profiles every engine decodes (the others, Main, LTP and SSR, hardly exist outside tests). */
const BROWSER_AAC = new Set(['LC', 'HE-AAC', 'HE-AACv2']);
/** PCM a browser plays from a WAV file (not through MSE, where no engine takes PCM). */
const WAV_PCM = new Set(['pcm_u8', 'pcm_s16le', 'pcm_s24le', 'pcm_f32le']);

/**
 * Containers a browser plays as they are, with the codecs it plays in each. Matroska is not one
 * (only Chromium and Firefox play it, and not by that name); WebM, its subset, is.
 */
const DIRECT: Record<string, { video: Set<string>; audio: Set<string> }> = {
  mov: { video: new Set(['h264', 'vp9', 'av1']), audio: new Set(['aac', 'mp3', 'opus', 'flac']) },
  webm: { video: new Set(['vp8', 'vp9', 'av1']), audio: new Set(['opus', 'vorbis']) },
  ogg: { video: new Set(), audio: new Set(['opus', 'vorbis', 'flac']) },
  mp3: { video: new Set(), audio: new Set(['mp3']) },
  flac: { video: new Set(), audio: new Set(['flac']) },
  aac: { video: new Set(), audio: new Set(['aac']) },
  wav: { video: new Set(), audio: WAV_PCM },
};

const codecName = (names: Record<string, string>, codec: string) => names[codec] ?? codec.toUpperCase();

/** H.264 High (8-bit 4:2:0), VP8, VP9 profile 0, AV1 Main (8 or 10-bit 4:2:0). */
function browserVideo(video: VideoProfile): boolean {
  const plain = video.chroma === '4:2:0' || video.chroma === null;
  switch (video.codec) {
    case 'h264':
    case 'vp9':
      return video.bitDepth === 8 && plain;
    case 'vp8':
      return true;
    case 'av1':
      return video.bitDepth <= 10 && plain;
    default:
      return false;
  }
}

function browserAudio(audio: AudioProfile, container: string): boolean {
  if (audio.codec === 'aac') return audio.profile === null || BROWSER_AAC.has(audio.profile);
  if (container === 'wav') return WAV_PCM.has(audio.codec);
  return ['mp3', 'opus', 'vorbis', 'flac'].includes(audio.codec);
}

/** "HEVC 10-bit", "H.264 4:2:2", "MPEG-4 Part 2": what of the video a browser cannot take. */
function videoBlocker(video: VideoProfile): string {
  const depth = video.bitDepth > 8 ? ` ${video.bitDepth}-bit` : '';
  const chroma = video.chroma && video.chroma !== '4:2:0' ? ` ${video.chroma}` : '';
  return `${codecName(VIDEO_NAMES, video.codec)}${depth}${chroma}`;
}

/** "DTS", "DTS-HD MA", "E-AC3". */
function audioName(audio: AudioProfile): string {
  if (audio.codec === 'dts' && audio.profile?.startsWith('DTS')) return audio.profile;
  if (audio.codec.startsWith('pcm_')) return 'PCM';
  return codecName(AUDIO_NAMES, audio.codec);
}

/** "HEVC Main 10, 1920×1080, HDR10". */
function videoWords(video: VideoProfile): string {
  // VP8's profile is a bare number no one recognises; VP9's is named ("Profile 0").
  const profile = video.profile && !/^\d+$/.test(video.profile) ? ` ${video.profile}` : '';
  return `${codecName(VIDEO_NAMES, video.codec)}${profile}, ${video.width}×${video.height}${video.hdr ? `, ${video.hdr}` : ''}`;
}

/** "E-AC3 5.1", "AAC stereo". */
function audioWords(audio: AudioProfile): string {
  const layout = audio.channels === 1 ? 'mono' : audio.channels === 2 ? 'stereo' : (audio.layout?.split('(')[0] ?? `${audio.channels} channels`);
  const aac = audio.codec === 'aac' && audio.profile && audio.profile !== 'LC' ? ` ${audio.profile}` : '';
  return `${audioName(audio)}${aac} ${layout}`;
}

/** The converted heights: the source's (at most `maxHeight`), then the ladder's rungs below it. Never upscaled. */
export function ladderOf(height: number, maxHeight: number): number[] {
  const top = Math.min(height, maxHeight);
  return [top, ...LADDER.filter((rung) => rung < top)];
}

/** The audio stream played: the default one, else the first. */
export function playedAudio(profile: MediaProfile): AudioProfile | null {
  return profile.audio.find((stream) => stream.default) ?? profile.audio[0] ?? null;
}

export function reachOf(profile: MediaProfile, options: ReachOptions): MediaReach {
  const { video } = profile;
  const audio = playedAudio(profile);
  const container = profile.container === 'matroska' && profile.docType === 'webm' ? 'webm' : profile.container;
  const videoOk = !video || browserVideo(video);
  const audioOk = !audio || browserAudio(audio, container);
  const direct = DIRECT[container];
  const fits = direct !== undefined && (!video || direct.video.has(video.codec)) && (!audio || direct.audio.has(audio.codec));
  const blockers: Blocker[] = [];
  // A container is in the way when browsers play none of it, or when its codecs (all of them
  // browser codecs) do not belong in it: never for codecs that are converted anyway.
  if (direct === undefined || (videoOk && audioOk && !fits)) blockers.push({ kind: 'container', name: codecName(CONTAINER_NAMES, container) });
  if (video && !videoOk) blockers.push({ kind: 'video', name: videoBlocker(video) });
  if (audio && !audioOk) blockers.push({ kind: 'audio', name: audioName(audio) });
  // In the transcode's HLS (every way but direct) only H.264 and AAC are copied: for those two
  // the master playlist's CODECS and every player's fMP4 support are certain (MP3 or Opus in
  // fMP4, VP9 or AV1 in HLS are not); a browser codec of another kind is converted too.
  const playable = !videoOk ? 'video' : !audioOk ? 'audio' : fits ? 'direct' : 'remux';
  const copyVideo = video !== null && videoOk && (playable === 'direct' || video.codec === 'h264');
  const copyAudio = audio !== null && audioOk && (playable === 'direct' || audio.codec === 'aac');
  const how = video && !copyVideo ? 'video' : audio && !copyAudio && playable !== 'video' ? 'audio' : playable;
  const imageSubtitles: ImageSubtitle[] = profile.subtitles
    .filter((stream) => stream.kind === 'image')
    .map((stream) => ({ index: stream.index, codec: stream.codec, language: stream.language, title: stream.title }));
  return {
    how,
    container,
    video: video ? videoWords(video) : null,
    audio: audio ? audioWords(audio) : null,
    blockers: how === 'direct' ? [] : blockers,
    height: video ? video.height : null,
    heights: how === 'video' && video ? ladderOf(video.height, options.maxHeight) : [],
    durationSeconds: profile.durationSeconds,
    videoStream: video ? video.index : null,
    audioStream: audio ? audio.index : null,
    videoTreatment: video ? (copyVideo ? 'copy' : 'convert') : null,
    audioTreatment: audio ? (copyAudio ? 'copy' : 'convert') : null,
    imageSubtitles,
    facts: {
      width: video?.width ?? null,
      height: video?.height ?? null,
      frameRate: video?.frameRate ?? null,
      profile: video?.profile ?? null,
      level: video?.level ?? null,
      hdr: video?.hdr === 'HLG' ? 'hlg' : video?.hdr ? 'pq' : null,
      videoBitrate: null,
      audioSampleRate: null,
      audioProfile: audio?.profile ?? null,
    },
  };
}
