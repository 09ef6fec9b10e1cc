/**
 * Converted or extracted subtitle text, kept briefly in memory: every viewer of a room asks for
 * the same track when an item starts, and an embedded track costs ffmpeg a read of the whole
 * file. Bounded by total characters and entries (oldest first out) and by age; concurrent
 * askers share one computation, and a failure is not kept.
 */
export interface CacheOptions {
  maxChars?: number;
  maxEntries?: number;
  ttlMs?: number;
  now?: () => number;
}

interface Entry<T> {
  at: number;
  value: Promise<T>;
  chars: number;
}

export class TextCache<T> {
  private readonly entries = new Map<string, Entry<T>>();
  private chars = 0;
  private readonly maxChars: number;
  private readonly maxEntries: number;
  private readonly ttlMs: number;
  private readonly now: () => number;

  constructor(
    private readonly sizeOf: (value: T) => number,
    options: CacheOptions = {},
  ) {
    this.maxChars = options.maxChars ?? 32 * 1024 * 1024;
    this.maxEntries = options.maxEntries ?? 500;
    this.ttlMs = options.ttlMs ?? 10 * 60_000;
    this.now = options.now ?? Date.now;
  }

  get(key: string, compute: () => Promise<T>): Promise<T> {
    const entry = this.entries.get(key);
    if (entry && this.now() - entry.at < this.ttlMs) return entry.value;
    if (entry) this.drop(key);
    const value = compute();
    const fresh: Entry<T> = { at: this.now(), value, chars: 0 };
    this.entries.set(key, fresh);
    value.then(
      (result) => {
        if (this.entries.get(key) !== fresh) return;
        fresh.chars = this.sizeOf(result);
        this.chars += fresh.chars;
        this.trim();
      },
      () => {
        if (this.entries.get(key) === fresh) this.drop(key);
      },
    );
    this.trim();
    return value;
  }

  get size(): number {
    return this.entries.size;
  }

  private trim(): void {
    while (this.entries.size > this.maxEntries || this.chars > this.maxChars) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) return;
      this.drop(oldest);
    }
  }

  private drop(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.chars -= entry.chars;
    this.entries.delete(key);
  }
}
