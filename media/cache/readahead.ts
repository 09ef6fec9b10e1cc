/**
 * Readahead for sequential readers of a resource. A player (or the bench) reading a file in
 * slice-sized ranges asks for exactly one slice per request, so on a miss each request would
 * wait for a whole upstream slice and nothing would overlap. When a reader has slice i in hand,
 * reads it to its end, and slice i-1 was among the last slices read of that resource, the
 * next `depth` slices are fetched in the background through the same single-flight map the
 * readers use: the next request joins the fetch in progress or finds the slice cached.
 *
 * Bounds, so readahead never costs more than a little memory and upstream traffic:
 * - at most `maxPerResource` readahead fetches of one resource and `maxGlobal` in all (each
 *   holds one slice in memory);
 * - a readahead fetch is one more waiter of its flight; it stops waiting after `idleMs`, or as
 *   soon as the last reader of its resource leaves before its answer ended (a seek, a closed
 *   player). When nobody else waits, the flight then aborts its upstream read like any other:
 *   nothing is indexed, the temporary file is never written.
 */

export interface ReadaheadOptions {
  /** Slices fetched ahead of a sequential reader; 0 turns readahead off. */
  depth: number;
  maxPerResource: number;
  maxGlobal: number;
  /** A readahead fetch nobody has joined is abandoned after this long. */
  idleMs: number;
}

export const DEFAULT_READAHEAD: ReadaheadOptions = { depth: 2, maxPerResource: 2, maxGlobal: 8, idleMs: 10_000 };

/** How many slice reads per resource are remembered to recognise a sequential reader. */
const RECENT_READS = 8;
/** Resources whose recent reads are remembered (oldest forgotten first). */
const RECENT_RESOURCES = 4096;

export interface ReadaheadHooks {
  /** Whether slice i is cached, being written, or being fetched: no readahead needed. */
  present(key: string, i: number): boolean;
  /** False while the cache would not keep what readahead fetches (its write backlog is full). */
  wanted(): boolean;
  /** Counts one readahead fetch started. */
  started(): void;
}

/** Joins (or starts) the single-flight fetch of slice i of the resource, waiting with `signal`. */
export type SliceFetch = (i: number, signal: AbortSignal) => Promise<unknown>;

interface Ahead {
  controller: AbortController;
  done: Promise<void>;
}

export class Readahead {
  private readonly recent = new Map<string, number[]>();
  private readonly readers = new Map<string, number>();
  private readonly running = new Map<string, Map<number, Ahead>>();
  private total = 0;

  constructor(
    private readonly options: ReadaheadOptions,
    private readonly hooks: ReadaheadHooks,
  ) {}

  /** Readahead fetches in progress (tests, `settled`). */
  get inFlight(): number {
    return this.total;
  }

  /** A reader of `key` starts reading an answer body. */
  enter(key: string): void {
    this.readers.set(key, (this.readers.get(key) ?? 0) + 1);
  }

  /**
   * A reader of `key` is done; `abandoned` when it left before its answer ended. When it was
   * the resource's last reader and left early, the resource's readahead is of no use to anyone.
   */
  leave(key: string, abandoned: boolean): void {
    const left = (this.readers.get(key) ?? 1) - 1;
    if (left > 0) {
      this.readers.set(key, left);
      return;
    }
    this.readers.delete(key);
    if (abandoned) this.cancel(key);
  }

  /** A client of `key` left: without another reader in progress, its readahead is of no use. */
  abandoned(key: string): void {
    if (!this.readers.has(key)) this.cancel(key);
  }

  /**
   * A reader has slice `i` of `key` in hand. `toEnd`: it reads the slice to its last byte.
   * `lastIndex`: the resource's last slice.
   */
  read(key: string, i: number, toEnd: boolean, lastIndex: number, fetch: SliceFetch): void {
    const recent = this.recent.get(key) ?? [];
    const sequential = recent.includes(i - 1);
    if (!recent.includes(i)) {
      recent.push(i);
      if (recent.length > RECENT_READS) recent.shift();
    }
    this.recent.delete(key);
    this.recent.set(key, recent);
    if (this.recent.size > RECENT_RESOURCES) this.recent.delete(this.recent.keys().next().value!);
    if (!sequential || !toEnd || this.options.depth <= 0) return;
    for (let next = i + 1; next <= Math.min(lastIndex, i + this.options.depth); next++) this.start(key, next, fetch);
  }

  private start(key: string, i: number, fetch: SliceFetch): void {
    let mine = this.running.get(key);
    if (mine?.has(i) || this.hooks.present(key, i) || !this.hooks.wanted()) return;
    if (this.total >= this.options.maxGlobal || (mine?.size ?? 0) >= this.options.maxPerResource) return;
    if (!mine) this.running.set(key, (mine = new Map<number, Ahead>()));
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new Error('readahead not claimed in time')), this.options.idleMs);
    timer.unref();
    this.total += 1;
    this.hooks.started();
    const running = mine;
    const done = fetch(i, controller.signal)
      // A failed or abandoned readahead costs nothing: a reader asking for the slice fetches it.
      .then(
        () => undefined,
        () => undefined,
      )
      .finally(() => {
        clearTimeout(timer);
        this.total -= 1;
        running.delete(i);
        if (running.size === 0 && this.running.get(key) === running) this.running.delete(key);
      });
    running.set(i, { controller, done });
  }

  /** Stops waiting for the readahead fetches of `key` (or of every resource). */
  cancel(key?: string): void {
    const reason = new Error('readahead abandoned: its readers are gone');
    for (const [k, running] of this.running) {
      if (key !== undefined && k !== key) continue;
      for (const ahead of running.values()) ahead.controller.abort(reason);
    }
  }

  /** Resolves once every readahead fetch started so far has settled. */
  async settled(): Promise<void> {
    while (this.total > 0) await Promise.all([...this.running.values()].flatMap((m) => [...m.values()].map((a) => a.done)));
  }
}
