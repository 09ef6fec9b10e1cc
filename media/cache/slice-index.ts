/**
 * Which slices are on disk, in least-recently-used order, and how many bytes they hold. A Map
 * keeps insertion order, so a use moves an entry to the end and eviction takes from the front.
 * The index only accounts; deleting files is the caller's (`onEvict`).
 */

export interface SliceEntry {
  /** Hash of the resource identity. */
  key: string;
  index: number;
  /** Version of the resource the bytes belong to (size and validators). */
  gen: string;
  path: string;
  bytes: number;
}

const idOf = (key: string, index: number): string => `${key}:${index}`;

export class SliceIndex {
  private readonly lru = new Map<string, SliceEntry>();
  private readonly byKey = new Map<string, Set<number>>();
  private total = 0;

  constructor(
    private readonly maxBytes: number,
    /** Entries pushed out to stay within maxBytes, oldest first. */
    private readonly onEvict: (evicted: SliceEntry[]) => void,
  ) {}

  get bytes(): number {
    return this.total;
  }

  get count(): number {
    return this.lru.size;
  }

  /** The entry, marked as just used. */
  touch(key: string, index: number): SliceEntry | undefined {
    const id = idOf(key, index);
    const entry = this.lru.get(id);
    if (entry) {
      this.lru.delete(id);
      this.lru.set(id, entry);
    }
    return entry;
  }

  /** The entry, without marking it used. */
  peek(key: string, index: number): SliceEntry | undefined {
    return this.lru.get(idOf(key, index));
  }

  has(key: string, index: number): boolean {
    return this.lru.has(idOf(key, index));
  }

  hasResource(key: string): boolean {
    return this.byKey.has(key);
  }

  /**
   * Adds (or replaces) an entry as the most recently used, then evicts from the least recently
   * used end until the total fits. Returns the entry it replaced, whose file is now unused.
   */
  add(entry: SliceEntry): SliceEntry | undefined {
    const replaced = this.remove(entry.key, entry.index);
    this.lru.set(idOf(entry.key, entry.index), entry);
    this.total += entry.bytes;
    let indices = this.byKey.get(entry.key);
    if (!indices) this.byKey.set(entry.key, (indices = new Set()));
    indices.add(entry.index);

    const evicted: SliceEntry[] = [];
    let total = this.total;
    for (const oldest of this.lru.values()) {
      if (total <= this.maxBytes || oldest === entry) break;
      evicted.push(oldest);
      total -= oldest.bytes;
    }
    for (const old of evicted) this.remove(old.key, old.index);
    if (evicted.length > 0) this.onEvict(evicted);
    return replaced;
  }

  /** Forgets one entry (its file vanished or was superseded); returns it. */
  remove(key: string, index: number): SliceEntry | undefined {
    const id = idOf(key, index);
    const entry = this.lru.get(id);
    if (!entry) return undefined;
    this.lru.delete(id);
    this.total -= entry.bytes;
    const indices = this.byKey.get(key);
    indices?.delete(index);
    if (indices?.size === 0) this.byKey.delete(key);
    return entry;
  }

  /** Forgets every slice of a resource (it changed upstream); returns them. */
  removeResource(key: string): SliceEntry[] {
    const indices = [...(this.byKey.get(key) ?? [])];
    return indices.map((index) => this.remove(key, index)).filter((e): e is SliceEntry => e !== undefined);
  }
}
