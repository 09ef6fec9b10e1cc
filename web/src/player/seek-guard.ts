/**
 * Where the player may put a media element that is told to seek. A source without Range
 * support (its server answers every read from the start) cannot jump: setting `currentTime`
 * restarts it at 0:00, which is how pause and every seek once snapped both players to the
 * start while the room said 60 s. So in such media the sync engine's seeks are dropped (the
 * player plays on or holds where it is; the rate still closes small drifts), a seek to the
 * start aside. The room says so (`seekable: 'no'`, from its probe); the element says so too
 * (Chromium reports `seekable` as [0, 0] for such a source), which covers sources the server
 * could not probe.
 */
import type { Seekable } from '../../../contracts/room/model.js';

/** A seek target this close to the start is a restart, which works in any source. */
const RESTART_MAX_S = 1;

/** The element holds media it cannot seek in, as far as it can tell. */
export function elementCannotSeek(video: HTMLMediaElement): boolean {
  const ranges = video.seekable;
  return Number.isFinite(video.duration) && video.duration > 0 && ranges.length === 1 && ranges.end(0) === 0;
}

/** The time to seek the player to for a wanted `position`, or null to leave it where it is (`cannotSeek`: the player says it cannot jump). */
export function seekTarget(cannotSeek: boolean, seekable: Seekable | null, position: number): number | null {
  if (seekable !== 'no' && !cannotSeek) return position;
  return position <= RESTART_MAX_S ? 0 : null;
}
