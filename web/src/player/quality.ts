/**
 * The viewer's quality choice for items with several rungs (the server's shared transcode offers
 * one HLS variant per height, PlayInfo.transcode.heights; an upstream HLS master playlist may too),
 * kept in this browser (localStorage `svc.quality`: "auto" or a height), like the subtitle
 * choice: a viewer's own, not the room's. The sync works on media time, so the rung a viewer
 * plays never moves them out of step.
 *
 * The next item may lack the height chosen for the last one: the choice then falls to the
 * nearest lower rung (whoever chose 720p to spare a slow line does not want 1080p), else Auto.
 */

/** "auto": the player picks the rung by bandwidth (hls.js ABR); a number: that height, fixed. */
export type QualityChoice = number | 'auto';

/**
 * The rungs of what plays now, for the quality menu. Only a player with a level API has one
 * (hls.js): Safari's own HLS, files, FLV, DASH and YouTube offer none.
 */
export interface QualityControl {
  /** The heights offered, highest first, each once; empty until the playlist is read. */
  readonly levels: readonly number[];
  /** The height of the rung playing now; null before the first one loads. */
  readonly current: number | null;
  /** Whether the player picks the rung itself (the viewer chose Auto). */
  readonly auto: boolean;
  /** What is chosen: Auto or the height asked for (the rung playing follows at the next fragment). */
  readonly choice: QualityChoice;
  /** Switches to a height (the nearest lower rung if it has not that one) or to Auto, without a stall. */
  choose(choice: QualityChoice): void;
  /** Calls `listener` when levels, current or auto change; returns how to stop. */
  onChange(listener: () => void): () => void;
}

const KEY = 'svc.quality';

/** The part of the browser's localStorage used here (read through globalThis: this module also runs under Node's unit tests). */
interface Store {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}
const store = (): Store | undefined => (globalThis as { localStorage?: Store }).localStorage;

/** The choice a stored value stands for: a positive whole height, else Auto. */
export function parseQuality(raw: string | null): QualityChoice {
  if (raw === null || raw === 'auto') return 'auto';
  const height = Number(raw);
  return Number.isInteger(height) && height > 0 ? height : 'auto';
}

/** The choice of this browser (Auto when none is stored or storage is off). */
export function storedQuality(): QualityChoice {
  try {
    return parseQuality(store()?.getItem(KEY) ?? null);
  } catch {
    return 'auto';
  }
}

export function rememberQuality(choice: QualityChoice): void {
  try {
    store()?.setItem(KEY, String(choice));
  } catch {
    // Storage may be off (private windows): the choice lasts for this item only.
  }
}

/** What `choice` means for an item with `heights`: that height, else the nearest lower one, else Auto. */
export function qualityFor(choice: QualityChoice, heights: readonly number[]): QualityChoice {
  if (choice === 'auto') return 'auto';
  const lower = heights.filter((height) => height <= choice);
  return lower.length > 0 ? Math.max(...lower) : 'auto';
}
