/**
 * Where each proxied item's bytes are, remembered per (room, item): a player reads a movie in
 * hundreds of ranges, and asking the provider each time (an API call for Alist) would double
 * the requests. An answer is used until its `expiresAt` comes within `refreshMarginMs`, or
 * until the upstream refuses it (`refresh`); answers that do not expire are asked again after
 * `maxAgeMs`. Concurrent askers share one call. An edit of the item (URL, provider, headers)
 * is a different entry.
 */
import type { MediaItem } from '../../contracts/room/model.js';
import type { MediaProvider, Upstream } from '../provider.js';

export interface ResolutionOptions {
  maxEntries?: number;
  refreshMarginMs?: number;
  maxAgeMs?: number;
  /** Longest one resolution may take (it runs for every waiting reader, not for one request). */
  timeoutMs?: number;
  now?: () => number;
}

interface Entry {
  fingerprint: string;
  answer: Promise<Upstream>;
  resolvedAt: number;
  upstream?: Upstream;
}

export class Resolutions {
  private readonly entries = new Map<string, Entry>();
  private readonly maxEntries: number;
  private readonly refreshMarginMs: number;
  private readonly maxAgeMs: number;
  private readonly timeoutMs: number;
  private readonly now: () => number;

  constructor(options: ResolutionOptions = {}) {
    this.maxEntries = options.maxEntries ?? 2000;
    this.refreshMarginMs = options.refreshMarginMs ?? 30_000;
    this.maxAgeMs = options.maxAgeMs ?? 10 * 60_000;
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.now = options.now ?? Date.now;
  }

  /**
   * The current answer for the item, resolving when there is none or it is about to expire. A
   * remembered answer is handed out only after the provider says the item is still readable in
   * the room (`readableIn`): remembering where the bytes are must not outlast the right to them.
   */
  async get(roomId: string, item: MediaItem, provider: MediaProvider): Promise<Upstream> {
    const key = `${roomId}\0${item.id}`;
    const entry = this.entries.get(key);
    if (entry && entry.fingerprint === fingerprintOf(item) && this.fresh(entry)) {
      if (provider.readableIn) await provider.readableIn(item, roomId);
      return entry.answer;
    }
    return this.start(roomId, key, item, provider, false);
  }

  /**
   * A new answer after the upstream refused `stale`. When another reader already replaced it,
   * that newer answer is used: one refusal seen by many readers resolves once.
   */
  refresh(roomId: string, item: MediaItem, provider: MediaProvider, stale: Upstream): Promise<Upstream> {
    const key = `${roomId}\0${item.id}`;
    const entry = this.entries.get(key);
    if (entry && entry.fingerprint === fingerprintOf(item) && (entry.upstream === undefined || entry.upstream !== stale)) return entry.answer;
    return this.start(roomId, key, item, provider, true);
  }

  private fresh(entry: Entry): boolean {
    const now = this.now();
    if (!entry.upstream) return true; // still resolving
    if (entry.upstream.expiresAt !== undefined) return entry.upstream.expiresAt - this.refreshMarginMs > now;
    return now - entry.resolvedAt < this.maxAgeMs;
  }

  private start(roomId: string, key: string, item: MediaItem, provider: MediaProvider, refresh: boolean): Promise<Upstream> {
    const entry: Entry = {
      fingerprint: fingerprintOf(item),
      resolvedAt: this.now(),
      answer: provider.resolve(item, { refresh, signal: AbortSignal.timeout(this.timeoutMs), roomId }),
    };
    entry.answer.then(
      (upstream) => {
        entry.upstream = upstream;
        entry.resolvedAt = this.now();
      },
      () => {
        // A failure is not remembered: the next reader asks again.
        if (this.entries.get(key) === entry) this.entries.delete(key);
      },
    );
    this.entries.delete(key);
    this.entries.set(key, entry);
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    return entry.answer;
  }
}

function fingerprintOf(item: MediaItem): string {
  return JSON.stringify([item.provider, item.url, item.headers]);
}
