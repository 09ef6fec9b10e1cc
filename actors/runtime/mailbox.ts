/**
 * A bounded FIFO. `shift()` on an array is O(n); a head index keeps a burst of thousands of
 * commands to one actor linear, and the backing array is compacted once it is mostly consumed.
 */
export class Mailbox<T> {
  private items: T[] = [];
  private head = 0;

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`mailbox capacity must be a positive integer, got ${capacity}`);
  }

  get size(): number {
    return this.items.length - this.head;
  }

  /** Adds at the tail; false (and nothing added) when full, unless `force` (self-scheduled work). */
  offer(item: T, force = false): boolean {
    if (!force && this.size >= this.capacity) return false;
    this.items.push(item);
    return true;
  }

  /** Removes and returns the head, or undefined when empty. */
  take(): T | undefined {
    if (this.head >= this.items.length) return undefined;
    const item = this.items[this.head] as T;
    this.items[this.head] = undefined as T;
    this.head += 1;
    if (this.head === this.items.length) {
      this.items = [];
      this.head = 0;
    } else if (this.head >= 1024 && this.head * 2 >= this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }

  /** Empties the mailbox, returning what was queued in order. */
  clear(): T[] {
    const rest = this.items.slice(this.head);
    this.items = [];
    this.head = 0;
    return rest;
  }
}
