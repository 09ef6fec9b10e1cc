/**
 * The plan of one rung of one item's transcode: what ffmpeg reads (this service's own proxy URL
 * on loopback, held to the one file demuxer the container was sniffed as, as the embedded
 * subtitle tools are: media/tools/container-sniff.ts), which streams it takes, and what it does
 * to each. Made from what the item's probe found (contracts/room/reach.ts) plus the few source
 * facts the reach leaves out (profile and level of copied video, HDR transfer, sample rate of
 * copied audio), so the ffmpeg arguments (media/transcode/encoder-args.ts) and the master
 * playlist's variant follow from it without another look at the media.
 *
 * Video is copied, or converted to a height at the bitrate of `VIDEO_RUNGS`; a 10-bit source
 * becomes 8-bit 4:2:0 (what every browser decodes); an HDR source is tone-mapped to SDR BT.709
 * (when this ffmpeg has zscale; otherwise its colours are passed through as they are and
 * look washed out: media/transcode/hw-encoders.ts says which). An image subtitle stream may be
 * burned in, scaled to the output. Audio is copied, or converted to AAC-LC stereo at 48 kHz
 * with ffmpeg's native `aac` encoder.
 */
import type { MediaReach, SourceFacts } from '../../contracts/room/reach.js';
import { AppError } from '../../errors/index.js';
import type { AudioFile } from '../tools/audio-sniff.js';
import { confinedInput, type FileContainer } from '../tools/container-sniff.js';
import { aacCodecString, avcCodecString } from './codec-strings.js';
import { segmentCount, segmentSecondsFor } from './timeline.js';

/** What the probe found of the source beyond the treatments (the reach's `facts`); any may be unknown. */
export type PlanFacts = Partial<SourceFacts>;

/** The media of one item as the transcode reads it. */
export interface TranscodeSource {
  /** This service's proxy URL of the media, on loopback: a credential until it expires, kept out of logs. */
  url: string;
  container: FileContainer | AudioFile;
  reach: Pick<MediaReach, 'durationSeconds' | 'videoStream' | 'audioStream' | 'videoTreatment' | 'audioTreatment' | 'height'>;
  facts?: PlanFacts;
}

/** What a rung asks beyond the source: the converted height, an image subtitle stream to burn in. */
export interface RungRequest {
  /** For converted video: one of the reach's `heights`. Ignored when the video is copied. */
  height?: number;
  /** ffprobe's index of an image subtitle stream (reach.imageSubtitles) to burn into converted video. */
  burnSubtitle?: number;
}

export type VideoPlan =
  | { treatment: 'copy'; stream: number }
  | {
      treatment: 'convert';
      stream: number;
      width: number;
      height: number;
      bitrateKbps: number;
      maxrateKbps: number;
      /** H.264 level_idc (31 = 3.1), set on the encoder so the CODECS string is known in advance. */
      level: number;
      hdr: 'pq' | 'hlg' | null;
      burnSubtitle: number | null;
    };

export type AudioPlan = { treatment: 'copy'; stream: number; sampleRate: number } | { treatment: 'convert'; stream: number; bitrateKbps: number; sampleRate: number };

export interface RungPlan {
  /** "720p", "720p-s3" (stream 3 burned in), "copy": names the rung's folder and its log lines. */
  name: string;
  /** The proxy URL read (to take out of what ffmpeg prints before it is logged). */
  url: string;
  /** The confined input options and `-i url` (media/tools/container-sniff.ts). */
  input: string[];
  durationSeconds: number;
  segmentSeconds: number;
  segmentCount: number;
  video: VideoPlan | null;
  audio: AudioPlan | null;
  /** The master playlist's view of the rung. */
  variant: { bandwidth: number; resolution?: { width: number; height: number }; codecs: string };
}

const LOWEST_RUNG = { height: 240, kbps: 400, level: 21, highRateLevel: 30 };

/** Converted rungs: height, bitrate (kbit/s) and H.264 level for ≤ 30 and > 30 frames per second. */
export const VIDEO_RUNGS: ReadonlyArray<{ height: number; kbps: number; level: number; highRateLevel: number }> = [
  { height: 2160, kbps: 16_000, level: 51, highRateLevel: 52 },
  { height: 1440, kbps: 9_000, level: 50, highRateLevel: 51 },
  { height: 1080, kbps: 5_000, level: 40, highRateLevel: 42 },
  { height: 720, kbps: 2_800, level: 31, highRateLevel: 32 },
  { height: 480, kbps: 1_400, level: 30, highRateLevel: 31 },
  { height: 360, kbps: 800, level: 30, highRateLevel: 31 },
  LOWEST_RUNG,
];

/** AAC stereo: 128 kbit/s beside small pictures, 160 above (stereo AAC-LC is transparent around there). */
const AUDIO_KBPS_SMALL = 128;
const AUDIO_KBPS = 160;
const AUDIO_SAMPLE_RATE = 48_000;
/** Peak over average of converted video: the VBV's maxrate, and what BANDWIDTH announces. */
const PEAK_RATIO = 1.5;

function rungFor(height: number) {
  return VIDEO_RUNGS.find((rung) => rung.height <= height) ?? LOWEST_RUNG;
}

/** An even width for `height` at the source's aspect (16:9 when it is not known). */
function widthFor(height: number, facts: PlanFacts): number {
  const aspect = facts.width && facts.height ? facts.width / facts.height : 16 / 9;
  return Math.max(2, Math.round((height * aspect) / 2) * 2);
}

/** The plan of one rung of `source`. */
export function planRung(source: TranscodeSource, request: RungRequest = {}): RungPlan {
  return { ...shapeRung(source.reach, source.facts ?? {}, request), url: source.url, input: confinedInput(source.container, source.url) };
}

/** What a rung of `reach` is, without its input: all a playlist needs (the gateways write them without reading the media). */
export type RungShape = Omit<RungPlan, 'url' | 'input'>;

export function shapeRung(reach: TranscodeSource['reach'], facts: PlanFacts, request: RungRequest = {}): RungShape {
  if (reach.durationSeconds === null || reach.durationSeconds <= 0) throw new AppError('failed_precondition', 'the media has no known duration, so it cannot be transcoded on a fixed timeline');
  if (reach.videoStream === null && reach.audioStream === null) throw new AppError('failed_precondition', 'the media has neither a video nor an audio stream to transcode');
  const segmentSeconds = segmentSecondsFor(reach.videoStream === null ? null : reach.videoTreatment);

  let video: VideoPlan | null = null;
  let videoCodec: string | undefined;
  let videoBandwidth = 0;
  let resolution: RungPlan['variant']['resolution'];
  if (reach.videoStream !== null) {
    if (reach.videoTreatment === 'convert') {
      const height = Math.min(request.height ?? reach.height ?? 720, reach.height ?? Number.POSITIVE_INFINITY);
      const even = Math.max(2, Math.round(height / 2) * 2);
      const rung = rungFor(even);
      const level = (facts.frameRate ?? 30) > 30.5 ? rung.highRateLevel : rung.level;
      const width = widthFor(even, facts);
      video = {
        treatment: 'convert',
        stream: reach.videoStream,
        width,
        height: even,
        bitrateKbps: rung.kbps,
        maxrateKbps: Math.round(rung.kbps * PEAK_RATIO),
        level,
        hdr: facts.hdr ?? null,
        burnSubtitle: request.burnSubtitle ?? null,
      };
      videoCodec = avcCodecString('High', level);
      videoBandwidth = video.maxrateKbps * 1000;
      resolution = { width, height: even };
    } else {
      video = { treatment: 'copy', stream: reach.videoStream };
      videoCodec = facts.profile != null && facts.level != null ? avcCodecString(facts.profile, facts.level) : undefined;
      // Without the stream's bitrate, twice the converted rate of its height: BANDWIDTH only ranks variants, and a copy is the only one.
      videoBandwidth = facts.videoBitrate ?? rungFor(reach.height ?? 720).kbps * 2000;
      if (facts.width && facts.height) resolution = { width: facts.width, height: facts.height };
    }
  }

  let audio: AudioPlan | null = null;
  let audioCodec: string | undefined;
  if (reach.audioStream !== null) {
    if (reach.audioTreatment === 'copy') {
      audio = { treatment: 'copy', stream: reach.audioStream, sampleRate: facts.audioSampleRate ?? AUDIO_SAMPLE_RATE };
      audioCodec = aacCodecString(facts.audioProfile ?? undefined);
    } else {
      const small = video?.treatment === 'convert' && video.height <= 480;
      audio = { treatment: 'convert', stream: reach.audioStream, bitrateKbps: small ? AUDIO_KBPS_SMALL : AUDIO_KBPS, sampleRate: AUDIO_SAMPLE_RATE };
      audioCodec = aacCodecString();
    }
  }
  const audioBandwidth = audio?.treatment === 'convert' ? audio.bitrateKbps * 1000 : audio ? AUDIO_KBPS * 1000 : 0;

  return {
    name: video?.treatment === 'convert' ? `${video.height}p${video.burnSubtitle === null ? '' : `-s${video.burnSubtitle}`}` : video ? 'copy' : 'audio',
    durationSeconds: reach.durationSeconds,
    segmentSeconds,
    segmentCount: segmentCount(reach.durationSeconds, segmentSeconds),
    video,
    audio,
    variant: {
      bandwidth: videoBandwidth + audioBandwidth,
      ...(resolution ? { resolution } : {}),
      // An H.264 profile we cannot name (copied video the probe did not describe) still gets High 4.0, which every browser decodes.
      codecs: [video ? (videoCodec ?? 'avc1.640028') : undefined, audioCodec].filter((codec) => codec !== undefined).join(','),
    },
  };
}
