/**
 * What the room needs from the service to learn whether a source can seek (media/seek-check.ts)
 * and how it reaches browsers (media/reach-check.ts): the network probes run outside the
 * actor's turns, so the service injects them.
 */
import type { MediaItem, Seekable } from '../../contracts/room/model.js';
import type { MediaReach } from '../../contracts/room/reach.js';

export type ProbedSeekable = Exclude<Seekable, 'checking'>;

export interface SeekProbe {
  /** What is known without the network, by the item's provider; `checking` when a probe must run. Synchronous: it runs in the turn. */
  initial(item: Pick<MediaItem, 'provider' | 'url' | 'live'>): Seekable;
  /** Asks the upstream of the item in room `roomId`; bounded in time and bytes, never rejects (`unknown` when it cannot tell). */
  probe(item: MediaItem, signal: AbortSignal, roomId: string): Promise<ProbedSeekable>;
  /**
   * How the item's media reaches browsers, asked of the transcoder pool; null when it cannot
   * tell (not a file, no transcoder, a failure). Never rejects. Absent: nothing is probed.
   */
  reach?(item: MediaItem, signal: AbortSignal, roomId: string): Promise<MediaReach | null>;
}
