/**
 * The fixed timeline of a transcoded item (issue 40): segment n always starts at n × D seconds
 * of media time, in every run of the encoder, on every rung of the ladder. Viewers in different
 * rooms, on different rungs, and an encoder restarted at a seek all agree on which bytes hold
 * which moment, so a segment made once is good for everyone and the room's sync engine (which
 * works on media time) needs to know nothing of the transcode.
 *
 * D is 2 s when the video is converted: we force a keyframe at every n × D, so the cut is exact,
 * and short segments make the first picture come quickly. When the video is copied (a remux, or
 * only the audio converted) the cuts must fall on the source's own keyframes: ffmpeg's HLS
 * muxer cuts at the first keyframe at or after each n × D, so a source GOP of 2-5 s needs a
 * longer D or most segments would be empty of cuts; 6 s is Apple's recommendation and covers the
 * GOPs we see. Segment n of copied video then starts at that keyframe, not at n × D exactly.
 */
import type { MediaReach } from '../../contracts/room/reach.js';

/** D when the video is converted (keyframes forced on the timeline). */
export const CONVERTED_SEGMENT_SECONDS = 2;
/** D when the video is copied (cuts on the source's keyframes) or there is no video. */
export const COPIED_SEGMENT_SECONDS = 6;

/** Float rounding of durations and positions. */
const EPSILON_SECONDS = 1e-6;
/**
 * A tail shorter than this past the last n × D is no segment of its own but the end of the one
 * before. The encoder cuts segment n at the first video frame at or after n × D, and a
 * container's duration often runs past the last frame's start by a frame or by a stream's start
 * offset (a 60 s HEVC file says 60.005 s: its video starts at 5 ms). Listed, such a segment is
 * never written: the player's request for it failed at the item's end, and hls.js's recovery
 * from that failure once moved a viewer off the rung they had chosen. Folded, at most this much
 * of the very end may go unplayed.
 */
const TAIL_FOLDED_SECONDS = 0.1;

/** D for an item whose video is `video` (null: no video stream). */
export function segmentSecondsFor(video: MediaReach['videoTreatment']): number {
  return video === 'convert' ? CONVERTED_SEGMENT_SECONDS : COPIED_SEGMENT_SECONDS;
}

/** How many segments a media of `durationSeconds` has (at least one; a short tail folded, above). */
export function segmentCount(durationSeconds: number, segmentSeconds: number): number {
  return Math.max(1, Math.ceil((durationSeconds - TAIL_FOLDED_SECONDS) / segmentSeconds - EPSILON_SECONDS));
}

/** The segment that holds media time `seconds` (clamped to the first). */
export function segmentAt(seconds: number, segmentSeconds: number): number {
  return Math.max(0, Math.floor(seconds / segmentSeconds + EPSILON_SECONDS));
}

/** The media time segment `n` starts at. */
export function segmentStart(n: number, segmentSeconds: number): number {
  return n * segmentSeconds;
}

/** The nominal length of segment `n` of a media of `durationSeconds`: D, the last one what is left (a folded tail included). */
export function segmentLength(n: number, durationSeconds: number, segmentSeconds: number): number {
  const last = n >= segmentCount(durationSeconds, segmentSeconds) - 1;
  const end = last ? durationSeconds : segmentStart(n + 1, segmentSeconds);
  return Math.max(0, end - segmentStart(n, segmentSeconds));
}
