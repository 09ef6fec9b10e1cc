/**
 * What the room needs from the service to learn whether a source can seek and how it reaches
 * browsers (media/seek-check.ts): the network probe runs outside the actor's turns, so the
 * service injects it.
 */
import type { MediaItem, Seekable } from '../../contracts/room/model.js';
import type { MediaReach } from '../../contracts/room/reach.js';

export type ProbedSeekable = Exclude<Seekable, 'checking'>;

/** What one check of an item's source found. */
export interface ProbedMedia {
  seekable: ProbedSeekable;
  /** How it reaches browsers; null when it could not be probed (not a file, no transcoder, a failure). */
  reach: MediaReach | null;
}

export interface SeekProbe {
  /** What is known without the network, by the item's provider; `checking` when a probe must run. Synchronous: it runs in the turn. */
  initial(item: Pick<MediaItem, 'provider' | 'url' | 'live'>): Seekable;
  /** Asks the upstream of the item in room `roomId`; bounded in time and bytes, never rejects (`unknown` and null when it cannot tell). */
  probe(item: MediaItem, signal: AbortSignal, roomId: string): Promise<ProbedMedia>;
}
