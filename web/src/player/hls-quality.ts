/**
 * The quality control of a source played by hls.js (sources.ts wires its events here). hls.js
 * sorts the variants by bitrate, lowest first, and names them by index; the menu speaks of
 * heights, highest first, so this maps one to the other (the highest bitrate of a height when a
 * playlist has several). A height is set with `nextLevel`: hls.js switches at the next fragment
 * and keeps what is buffered, so playback does not stall (`currentLevel` would flush the buffer
 * and wait for the new rung, a stall the room's sync would then have to catch up). Auto is
 * `nextLevel = -1`, which hands the choice back to its bandwidth estimate the same way.
 */
import { qualityFor, type QualityChoice, type QualityControl } from './quality.js';

/** The part of hls.js this uses (an `Hls` instance has it; the unit tests give a plain object). */
export interface LevelApi {
  readonly levels: readonly { readonly height: number; readonly bitrate: number }[];
  startLevel: number;
  loadLevel: number;
  nextLevel: number;
  /** False while a rung is fixed (a viewer's choice); hls.js sets it back on a rung that fails. */
  readonly autoLevelEnabled: boolean;
}

export class HlsQuality implements QualityControl {
  private readonly listeners = new Set<() => void>();
  /** The index of the level playing (hls.js's LEVEL_SWITCHED), or null before one does. */
  private playing: number | null = null;
  private chosen: QualityChoice = 'auto';

  constructor(private readonly hls: LevelApi) {}

  get levels(): number[] {
    const heights = new Set(this.hls.levels.map((level) => level.height).filter((height) => height > 0));
    return [...heights].sort((a, b) => b - a);
  }

  get current(): number | null {
    if (this.playing === null) return null;
    const height = this.hls.levels[this.playing]?.height;
    return height !== undefined && height > 0 ? height : null;
  }

  get auto(): boolean {
    return this.chosen === 'auto';
  }

  get choice(): QualityChoice {
    return this.chosen;
  }

  /**
   * The playlist has been read and nothing is loaded yet (hls.js's MANIFEST_PARSED): start at the
   * remembered rung, so a viewer who chose 480p never loads a 1080p fragment first.
   */
  start(remembered: QualityChoice): void {
    this.chosen = qualityFor(remembered, this.levels);
    const index = this.indexOf(this.chosen);
    if (index !== -1) {
      this.hls.startLevel = index;
      // Fixes the rung (hls.js's manual level) without touching a buffer, which is still empty.
      this.hls.loadLevel = index;
    }
    this.changed();
  }

  choose(choice: QualityChoice): void {
    this.chosen = qualityFor(choice, this.levels);
    this.hls.nextLevel = this.indexOf(this.chosen);
    this.changed();
  }

  /**
   * hls.js met an error (ERROR, heard after its own handling). A fixed rung that fails for good
   * (a fragment or playlist refused, out of retries, or undecodable) makes hls.js hand the choice
   * back to its bandwidth estimate so playback goes on (`preserveManualLevelOnError` off, its
   * default): the control then says Auto too, not the rung it no longer plays. The choice this
   * browser remembers stays, for the next item.
   */
  erred(): void {
    if (this.chosen === 'auto' || !this.hls.autoLevelEnabled) return;
    this.chosen = 'auto';
    this.changed();
  }

  /** hls.js switched to the level of `index` (LEVEL_SWITCHED). */
  switched(index: number): void {
    this.playing = index;
    this.changed();
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The level index for a choice: -1 for Auto, else the highest bitrate of that height. */
  private indexOf(choice: QualityChoice): number {
    if (choice === 'auto') return -1;
    let best = -1;
    this.hls.levels.forEach((level, index) => {
      if (level.height === choice && (best === -1 || level.bitrate > (this.hls.levels[best]?.bitrate ?? 0))) best = index;
    });
    return best;
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }
}
