/**
 * The ffmpeg argument list of one run of a rung's encoder, starting at segment s of the fixed
 * timeline (media/transcode/timeline.ts). Established on Debian's ffmpeg 5.1 (and asserted in
 * test/media/transcode/rung-encoder.test.ts by reading each segment's `tfdt`):
 *
 * - The input is seeked to s × D and `-output_ts_offset s×D` puts the output back on media
 *   time. That alone is not enough: the fMP4 muxer makes each track's first decode time zero
 *   in every run, unless told the run is a discontinuity (`movflags=+frag_discont`, passed to
 *   the segment muxer with `-hls_segment_options`); with it, segment n's `tfdt` is n × D in a
 *   run from 0 and in a run from s alike. (`-copyts` gives the same for a source that starts at
 *   0, and a wrong timeline for one that does not, as MPEG-TS files do.)
 * - Times below zero are left alone (`-avoid_negative_ts disabled`): otherwise a run from 0
 *   shifts every stream by the B-frame delay of the video (80 ms with x264's 3 B-frames), and
 *   a run from s does not. The video's first decode time may then be negative; the fMP4 muxer
 *   (with its edit list) writes the first presentation time as the `tfdt`, which is n × D.
 * - The AAC encoder's priming packet (1024 samples before 0) would still be negative, and a
 *   negative audio `tfdt` wraps around; it is dropped (`noise=drop=lt(pts\,0)` on the audio),
 *   in every run alike.
 * - The HLS muxer cuts at the first keyframe at least k × D after the run's first packet. With
 *   converted video keyframes are forced at exactly n × D and the run's first frame is s × D,
 *   so every cut is exact. With copied video, `-copypriorss:v 0` drops the packets before s × D
 *   (and the non-keyframes after it), so the run starts at the first keyframe at or after s × D,
 *   like segment s of a run from 0; the (converted) audio starts at s × D exactly and makes the
 *   muxer's reference. The muxer compares the audio's start with video times without converting
 *   time bases, so the video track's timescale is set to the audio's sample rate.
 * - The init segment of every run is byte-identical for one plan (no creation time, the same
 *   encoder settings), so the first run's is served for all.
 * - `temp_file` makes segments appear under their name only once complete; `-start_number s`
 *   names them by their timeline number.
 */
import { join } from 'node:path';
import type { RungPlan } from './encode-plan.js';
import type { H264Encoder } from './hw-encoders.js';

export interface RunOptions {
  /** The timeline segment the run starts at. */
  startSegment: number;
  /** The rung's folder: segments are written as `<n>.m4s`. */
  folder: string;
  /** The init segment's file name in `folder` (each run writes its own: media/transcode/rung-encoder.ts). */
  initName: string;
  encoder: H264Encoder;
  /** Whether this ffmpeg has zscale (tone mapping of HDR sources): media/transcode/hw-encoders.ts. */
  zscale: boolean;
}

/** The name of segment `n` in a rung's folder. */
export const segmentFileName = (n: number) => `${n}.m4s`;
/** ffmpeg's own playlist, which nobody reads (media/transcode/hls-playlists.ts writes the ones served). */
const FFMPEG_PLAYLIST = 'ffmpeg.m3u8';

/** The video filter chain of converted video: tone mapping or bit depth, the size, a burned-in subtitle, the encoder's tail. */
function videoFilter(plan: RungPlan, options: RunOptions): string {
  const video = plan.video;
  if (video?.treatment !== 'convert') throw new Error('videoFilter: the video is not converted');
  const { width, height } = video;
  let chain: string;
  if (video.hdr && options.zscale) {
    // Linear light in float, BT.2020 → BT.709 primaries, Hable's curve, then BT.709 limited range (what the encoder is tagged with).
    const transfer = video.hdr === 'pq' ? 'smpte2084' : 'arib-std-b67';
    // The input's transfer, matrix, primaries and range are named, not read from the stream: many files leave them untagged,
    // and zscale finds "no path between colorspaces" then. The primaries stay BT.2020 while linear, or it finds none either.
    chain = `zscale=w=${width}:h=${height}:tin=${transfer}:min=bt2020nc:pin=bt2020:rin=tv:t=linear:npl=100:p=bt2020,format=gbrpf32le,zscale=p=bt709,tonemap=tonemap=hable:desat=0,zscale=t=bt709:m=bt709:r=tv`;
  } else {
    chain = `scale=${width}:${height}`;
  }
  const steps = [`[0:${video.stream}]${chain},format=yuv420p[base]`];
  let last = 'base';
  if (video.burnSubtitle !== null) {
    // Image subtitles are drawn on the source's canvas: scaled to the output, then laid over it.
    steps.push(`[0:${video.burnSubtitle}]scale=${width}:${height}[subs]`, `[base][subs]overlay=eof_action=pass:repeatlast=0,format=yuv420p[burned]`);
    last = 'burned';
  }
  steps.push(`[${last}]${options.encoder.filterTail}[v]`);
  return steps.join(';');
}

/** The arguments of a run of `plan` from `options.startSegment`. */
export function encoderArgs(plan: RungPlan, options: RunOptions): string[] {
  const D = plan.segmentSeconds;
  const start = options.startSegment * D;
  const args = ['-hide_banner', '-loglevel', 'error', '-nostdin', '-nostats', '-progress', 'pipe:1', '-stats_period', '1'];
  const convert = plan.video?.treatment === 'convert';
  if (convert) args.push(...options.encoder.globalArgs);
  if (start > 0) args.push('-ss', String(start));
  args.push(...plan.input);

  if (plan.video?.treatment === 'convert') {
    const video = plan.video;
    args.push('-filter_complex', videoFilter(plan, options), '-map', '[v]');
    args.push(...options.encoder.codecArgs, '-level:v', (video.level / 10).toFixed(1));
    args.push('-b:v', `${video.bitrateKbps}k`, '-maxrate:v', `${video.maxrateKbps}k`, '-bufsize:v', `${video.bitrateKbps * 2}k`);
    // A keyframe at every n × D of the run (its times start at s × D, a multiple of D) and none elsewhere.
    args.push('-force_key_frames:v', `expr:gte(t,n_forced*${D})`, '-sc_threshold:v', '0');
    if (video.hdr && options.zscale) args.push('-color_primaries:v', 'bt709', '-color_trc:v', 'bt709', '-colorspace:v', 'bt709');
  } else if (plan.video) {
    args.push('-map', `0:${plan.video.stream}`, '-c:v', 'copy', '-copypriorss:v', '0');
  }
  if (plan.audio) {
    args.push('-map', `0:${plan.audio.stream}`);
    if (plan.audio.treatment === 'convert') args.push('-c:a', 'aac', '-ac', '2', '-ar', String(plan.audio.sampleRate), '-b:a', `${plan.audio.bitrateKbps}k`);
    else args.push('-c:a', 'copy', '-copypriorss:a', '0');
    args.push('-bsf:a', 'noise=drop=lt(pts\\,0)');
  }
  args.push('-output_ts_offset', String(start), '-avoid_negative_ts', 'disabled', '-max_muxing_queue_size', '4096');
  const segmentOptions = ['movflags=+frag_discont', ...(plan.audio && plan.video ? [`video_track_timescale=${plan.audio.sampleRate}`] : [])];
  args.push(
    '-f', 'hls',
    '-hls_segment_type', 'fmp4',
    '-hls_time', String(D),
    '-hls_list_size', '0',
    '-start_number', String(options.startSegment),
    '-hls_flags', 'independent_segments+temp_file',
    '-hls_fmp4_init_filename', options.initName,
    '-hls_segment_filename', join(options.folder, '%d.m4s'),
    '-hls_segment_options', segmentOptions.join(':'),
    // The HLS muxer writes files in the rung's folder and opens nothing else.
    '-protocol_whitelist', 'file',
    join(options.folder, FFMPEG_PLAYLIST),
  );
  return args;
}
