/**
 * The playlists of a transcoded item, written from its duration and D alone (media/transcode/
 * timeline.ts), never read from ffmpeg: the whole VOD playlist exists before a single segment
 * does, so a player can seek anywhere at once, and every viewer gets the same text whichever
 * run of the encoder is making the segments. Each segment is listed at its nominal length;
 * with copied video the real cut is at the first source keyframe at or after n × D, which a
 * player accepts (it places fMP4 fragments by their `tfdt`, not by adding EXTINFs up).
 */
import { segmentCount, segmentLength } from './timeline.js';

export interface MediaPlaylistInput {
  durationSeconds: number;
  segmentSeconds: number;
  /** The URL (relative is fine) of the rung's init segment. */
  initUrl: string;
  /** The URL (relative is fine) of segment `n`. */
  segmentUrl: (n: number) => string;
}

/** One rung as the master playlist offers it. */
export interface PlaylistVariant {
  url: string;
  /** Peak bits per second (video + audio), as HLS asks. */
  bandwidth: number;
  /** Absent for audio-only media. */
  resolution?: { width: number; height: number };
  /** RFC 6381 codecs, e.g. `avc1.64001f,mp4a.40.2` (media/transcode/codec-strings.ts). */
  codecs: string;
}

/** EXTINF values with three decimals: enough for 1/25 s frames, and the same text every time. */
const seconds = (value: number) => value.toFixed(3);

/** The VOD media playlist of one rung. */
export function mediaPlaylist(input: MediaPlaylistInput): string {
  const count = segmentCount(input.durationSeconds, input.segmentSeconds);
  const lines = [
    '#EXTM3U',
    '#EXT-X-VERSION:7',
    `#EXT-X-TARGETDURATION:${Math.ceil(input.segmentSeconds)}`,
    '#EXT-X-MEDIA-SEQUENCE:0',
    '#EXT-X-PLAYLIST-TYPE:VOD',
    '#EXT-X-INDEPENDENT-SEGMENTS',
    `#EXT-X-MAP:URI="${input.initUrl}"`,
  ];
  for (let n = 0; n < count; n += 1) {
    lines.push(`#EXTINF:${seconds(segmentLength(n, input.durationSeconds, input.segmentSeconds) || input.segmentSeconds)},`, input.segmentUrl(n));
  }
  lines.push('#EXT-X-ENDLIST', '');
  return lines.join('\n');
}

/** The master playlist of a ladder, one variant per rung in the order given (highest first is usual). */
export function masterPlaylist(variants: PlaylistVariant[]): string {
  const lines = ['#EXTM3U', '#EXT-X-VERSION:7', '#EXT-X-INDEPENDENT-SEGMENTS'];
  for (const variant of variants) {
    const attributes = [`BANDWIDTH=${Math.round(variant.bandwidth)}`];
    if (variant.resolution) attributes.push(`RESOLUTION=${variant.resolution.width}x${variant.resolution.height}`);
    attributes.push(`CODECS="${variant.codecs}"`);
    lines.push(`#EXT-X-STREAM-INF:${attributes.join(',')}`, variant.url);
  }
  lines.push('');
  return lines.join('\n');
}
