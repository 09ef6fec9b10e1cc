/**
 * The commands an activation has seen recently, by caller-scoped key (command-key.ts), with
 * their encoded replies. A client retries a command with the same envelope id when a reply is
 * late or lost; a retry of a command still queued or running waits for the one execution,
 * and a retry of a finished one gets the same reply again. Replies of durable commands recorded by earlier activations are restored here
 * when an activation starts (see command-log.ts).
 *
 * Bounded three ways, because replies can be large (a room view is up to hundreds of KiB): a
 * finished entry is forgotten once its envelope deadline has passed (a retry carries the same
 * deadline and would be dropped anyway), checked by the host's sweep as well as on every
 * completion so an idle activation lets go too; beyond `limit` entries or `maxBytes` of
 * replies the oldest finished ones go first (the newest is always kept).
 */
export type Seen = { state: 'new' } | { state: 'pending' } | { state: 'done'; reply: string };

interface Entry {
  reply?: string;
  /** The envelope deadline (ms since epoch): no retry of the command is served after it. */
  deadline: number;
  /** Reply subjects waiting for the result: the first request and any retries of it. */
  waiters: string[];
}

export class RecentCommands {
  private readonly entries = new Map<string, Entry>();
  /** Characters of the replies held (JSON text; at least their UTF-8 size in bytes). */
  private replyChars = 0;

  constructor(
    private readonly limit: number,
    private readonly maxBytes: number,
  ) {}

  /** Replies held, in characters (for tests and stats). */
  get heldChars(): number {
    return this.replyChars;
  }

  get size(): number {
    return this.entries.size;
  }

  /** Looks `id` up; when it is pending, `replyTo` is added to the subjects that will get the reply. */
  seen(id: string, replyTo: string | undefined): Seen {
    const entry = this.entries.get(id);
    if (!entry) return { state: 'new' };
    if (entry.reply !== undefined) return { state: 'done', reply: entry.reply };
    if (replyTo && !entry.waiters.includes(replyTo)) entry.waiters.push(replyTo);
    return { state: 'pending' };
  }

  /** Records a command accepted for execution. */
  begin(id: string, replyTo: string | undefined, deadline: number): void {
    this.entries.set(id, { waiters: replyTo ? [replyTo] : [], deadline });
  }

  /** A reply an earlier activation recorded for a durable command. */
  restore(id: string, reply: string, deadline: number): void {
    if (this.entries.has(id)) return;
    this.entries.set(id, { reply, deadline, waiters: [] });
    this.replyChars += reply.length;
    this.evict(Date.now(), id);
  }

  /** Stores the reply of `id` and returns every subject that waits for it. */
  complete(id: string, reply: string): string[] {
    const entry = this.entries.get(id);
    if (!entry) return [];
    // Re-inserted so that map order is completion order: eviction takes the oldest first.
    this.entries.delete(id);
    entry.reply = reply;
    this.entries.set(id, entry);
    this.replyChars += reply.length;
    const waiters = entry.waiters;
    entry.waiters = [];
    this.evict(Date.now(), id);
    return waiters;
  }

  /** Forgets a command that was not executed (dropped past its deadline), returning its waiters. */
  forget(id: string): string[] {
    const entry = this.entries.get(id);
    if (!entry) return [];
    this.remove(id, entry);
    return entry.waiters;
  }

  /**
   * Forgets finished entries past their deadline, oldest first, up to the first one still
   * valid (as eviction does): the host's sweep calls it on every activation, and walking every
   * entry of a thousand busy activations stalled the host for tens of milliseconds. Clients
   * use alike timeouts, so completion order is close to deadline order.
   */
  expire(now = Date.now()): void {
    this.evict(now, undefined);
  }

  /** Drops the oldest finished entries while over a bound or past their deadline; `newest` (just stored, if any) stays. */
  private evict(now: number, newest: string | undefined): void {
    for (const [id, entry] of this.entries) {
      // Pending entries stay: dropping one would let its retry run the command a second time.
      if (entry.reply === undefined) continue;
      const over = this.entries.size > this.limit || this.replyChars > this.maxBytes;
      if ((!over && entry.deadline >= now) || id === newest) return;
      this.remove(id, entry);
    }
  }

  private remove(id: string, entry: Entry): void {
    this.entries.delete(id);
    if (entry.reply !== undefined) this.replyChars -= entry.reply.length;
  }
}
