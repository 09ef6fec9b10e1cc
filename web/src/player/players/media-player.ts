/**
 * What the sync (player-sync.ts) drives: one player of the current item, whatever shows it. The
 * `<video>` element implements it for files, HLS, FLV and DASH (video-player.ts); embedded
 * players implement it over their own API (the YouTube IFrame player, youtube-player.ts). The
 * sync engine asks nothing else of a player, so every source stays in step by the same rules.
 */

/** Which implementation: the sync bench reports figures per kind. */
export type PlayerKind = 'video' | 'youtube';

/** A frame on screen: the media time it shows and when (local ms since the epoch). */
export interface PlayerFrame {
  mediaTime: number;
  at: number;
}

export interface MediaPlayer {
  readonly kind: PlayerKind;
  /** The media element, where the player is one (the debug stats record its events). */
  readonly element?: HTMLMediaElement;
  /**
   * Whether the playback rate can move in 1 % steps without a stall. Where it cannot (an
   * embedded player offering a few fixed rates), the engine corrects drift by seeking only.
   */
  readonly smoothRate: boolean;
  /** Seconds into the media now (between frames: the player's clock). */
  readonly currentTime: number;
  readonly paused: boolean;
  readonly playbackRate: number;
  /** A seek is in flight. */
  readonly seeking: boolean;
  /** Meant to play but waiting for data. */
  readonly buffering: boolean;
  /** The player knows the media's length and can seek. */
  readonly hasMetadata: boolean;
  /** Seconds, once known and finite; undefined for live media or before the metadata. */
  readonly duration: number | undefined;
  readonly ended: boolean;
  /** Buffered ranges ([start, end] s), when the player says. */
  readonly buffered: Array<[number, number]> | undefined;
  /** The player holds media it cannot jump in (its source refuses ranged reads). */
  readonly cannotSeek: boolean;
  volume: number;
  muted: boolean;
  /** Rejects with a DOMException `NotAllowedError` when the browser wants a user gesture first. */
  play(): Promise<void>;
  pause(): void;
  seek(position: number): void;
  setRate(rate: number): void;
  /**
   * Calls back with every frame shown, until the returned function is called; null where the
   * player has no frame callback (the sync then samples `currentTime` each animation frame).
   */
  readonly watchFrames: ((callback: (frame: PlayerFrame) => void) => () => void) | null;
  /** Calls back when a wait ends (metadata known, a seek landed, data to play): the engine may act at once. */
  onWake(callback: () => void): () => void;
  /** Calls back when the media reached its end. */
  onEnded(callback: () => void): () => void;
}
