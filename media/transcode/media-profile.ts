/**
 * The facts about an item's media that decide how it reaches browsers (media/transcode/reach.ts)
 * and what the transcoder does with it: its container, the video stream, the audio and subtitle
 * streams, as one `ffprobe -show_format -show_streams` run reports them (media/transcode/probe.ts),
 * turned here into plain values. Kept apart from the run so the rules can be read and tested
 * on their own.
 */

/** How the video's colours are coded when they are HDR: what an SDR screen needs tone-mapped. */
export type HdrFormat = 'HDR10' | 'HLG' | 'Dolby Vision';

export interface VideoProfile {
  /** ffprobe's stream index. */
  index: number;
  /** ffprobe's codec name: h264, hevc, vp9, av1, mpeg4, ... */
  codec: string;
  /** ffprobe's profile name: High, Main 10, Profile 0, Simple Profile, ...; null when it has none. */
  profile: string | null;
  /** ffprobe's level (41 for H.264 4.1, 120 for HEVC 4); null when unknown. */
  level: number | null;
  /** Bits per sample: from the pixel format (yuv420p10le: 10), else bits_per_raw_sample, else 8. */
  bitDepth: number;
  /** Chroma subsampling from the pixel format; null when the pixel format does not say. */
  chroma: '4:2:0' | '4:2:2' | '4:4:4' | null;
  hdr: HdrFormat | null;
  width: number;
  height: number;
  /** Frames per second (average); null when unknown. */
  frameRate: number | null;
}

export interface AudioProfile {
  index: number;
  codec: string;
  /** LC, HE-AAC, DTS-HD MA, ...; null when ffprobe names none. */
  profile: string | null;
  channels: number;
  /** ffprobe's channel layout (5.1(side), stereo); null when unknown. */
  layout: string | null;
  /** ISO 639-2 code; null when untagged or "und". */
  language: string | null;
  /** The stream's default disposition: the one a player picks. */
  default: boolean;
}

export interface SubtitleProfile {
  index: number;
  codec: string;
  /** text: a player can show it (subrip, ass, webvtt, mov_text, ...); image: bitmaps (PGS, VobSub, DVB). */
  kind: 'text' | 'image';
  language: string | null;
  title: string | null;
}

export interface MediaProfile {
  /** ffprobe's format name (the first of its comma list): mov, matroska, avi, mpegts, ogg, mp3, flac, wav, aac. */
  container: string;
  /** A Matroska file's EBML DocType (webm or matroska, read from its header); null for other containers. */
  docType: string | null;
  durationSeconds: number | null;
  /** The whole file's bits per second; null when unknown. */
  bitRate: number | null;
  /** The video stream (cover art is not one); null when there is none. */
  video: VideoProfile | null;
  audio: AudioProfile[];
  subtitles: SubtitleProfile[];
}

/** What of `ffprobe -show_format -show_streams -of json` is read. */
export interface FfprobeStream {
  index: number;
  codec_type?: string;
  codec_name?: string;
  profile?: string;
  level?: number;
  pix_fmt?: string;
  bits_per_raw_sample?: string;
  color_transfer?: string;
  width?: number;
  height?: number;
  avg_frame_rate?: string;
  r_frame_rate?: string;
  channels?: number;
  channel_layout?: string;
  disposition?: Record<string, number>;
  tags?: Record<string, string>;
  side_data_list?: Array<{ side_data_type?: string }>;
}

export interface FfprobeOutput {
  format?: { format_name?: string; duration?: string; bit_rate?: string };
  streams?: FfprobeStream[];
}

/** Bitmap subtitle codecs: shown only when burned into the picture. */
export const IMAGE_SUBTITLE_CODECS = new Set(['hdmv_pgs_subtitle', 'dvd_subtitle', 'dvb_subtitle', 'xsub']);

const number = (text: string | undefined): number | null => {
  const value = Number(text);
  return text !== undefined && text !== '' && Number.isFinite(value) ? value : null;
};

/** "24000/1001" as 23.976...; "0/0" (unknown) as null. */
function rate(text: string | undefined): number | null {
  const [top, bottom] = (text ?? '').split('/').map(Number);
  return top && bottom ? top / bottom : null;
}

/** yuv420p10le: 10 bits, 4:2:0. Formats that do not name a depth (yuv420p, nv12, gray) are 8-bit. */
function pixelFormat(stream: FfprobeStream): Pick<VideoProfile, 'bitDepth' | 'chroma'> {
  const format = stream.pix_fmt ?? '';
  const depth = /p(\d+)(?:le|be)$/.exec(format)?.[1];
  const chroma = format.startsWith('yuv420') || format.startsWith('yuvj420') || format.startsWith('nv12') || format.startsWith('p010') ? '4:2:0' : format.startsWith('yuv422') || format.startsWith('yuvj422') ? '4:2:2' : format.startsWith('yuv444') || format.startsWith('yuvj444') ? '4:4:4' : null;
  return { bitDepth: depth ? Number(depth) : format.startsWith('p010') ? 10 : (number(stream.bits_per_raw_sample) ?? 8), chroma };
}

function hdrOf(stream: FfprobeStream): HdrFormat | null {
  if (stream.side_data_list?.some((data) => data.side_data_type?.startsWith('DOVI configuration'))) return 'Dolby Vision';
  if (stream.color_transfer === 'smpte2084') return 'HDR10';
  if (stream.color_transfer === 'arib-std-b67') return 'HLG';
  return null;
}

const tag = (stream: FfprobeStream, name: string): string | null => {
  const value = stream.tags?.[name] ?? stream.tags?.[name.toUpperCase()];
  return value && value !== 'und' ? value : null;
};

const profileName = (stream: FfprobeStream): string | null => (stream.profile && stream.profile !== 'unknown' ? stream.profile : null);

/** The profile of media whose ffprobe report is `probe` (its Matroska DocType read apart, when it has one). */
export function mediaProfileOf(probe: FfprobeOutput, docType: string | null): MediaProfile {
  const streams = probe.streams ?? [];
  // Cover art and thumbnails are video streams of one picture: not what is played.
  const video = streams.find((stream) => stream.codec_type === 'video' && stream.disposition?.attached_pic !== 1);
  const container = (probe.format?.format_name ?? '').split(',')[0] ?? '';
  return {
    container,
    docType: container === 'matroska' ? docType : null,
    durationSeconds: number(probe.format?.duration),
    bitRate: number(probe.format?.bit_rate),
    video: video
      ? {
          index: video.index,
          codec: video.codec_name ?? 'unknown',
          profile: profileName(video),
          level: video.level !== undefined && video.level >= 0 ? video.level : null,
          ...pixelFormat(video),
          hdr: hdrOf(video),
          width: video.width ?? 0,
          height: video.height ?? 0,
          frameRate: rate(video.avg_frame_rate) ?? rate(video.r_frame_rate),
        }
      : null,
    audio: streams
      .filter((stream) => stream.codec_type === 'audio')
      .map((stream) => ({
        index: stream.index,
        codec: stream.codec_name ?? 'unknown',
        profile: profileName(stream),
        channels: stream.channels ?? 0,
        layout: stream.channel_layout ?? null,
        language: tag(stream, 'language'),
        default: stream.disposition?.default === 1,
      })),
    subtitles: streams
      .filter((stream) => stream.codec_type === 'subtitle')
      .map((stream) => ({
        index: stream.index,
        codec: stream.codec_name ?? 'unknown',
        kind: IMAGE_SUBTITLE_CODECS.has(stream.codec_name ?? '') ? 'image' : 'text',
        language: tag(stream, 'language'),
        title: tag(stream, 'title'),
      })),
  };
}
