/**
 * The command ids an activation has seen recently, with their encoded replies. A client retries
 * a command with the same envelope id when a reply is late or lost; a retry of a command still
 * queued or running waits for the one execution, and a retry of a finished one gets the same
 * reply again. Bounded twice: a finished entry is forgotten once its envelope deadline has
 * passed (a retry carries the same deadline and would be dropped anyway), and beyond `limit`
 * entries the oldest finished ones go first.
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

  constructor(private readonly limit: number) {}

  /** Looks `id` up; when it is pending, `replyTo` is added to the subjects that will get the reply. */
  seen(id: string, replyTo: string | undefined): Seen {
    const entry = this.entries.get(id);
    if (!entry) return { state: 'new' };
    if (entry.reply) return { state: 'done', reply: entry.reply };
    if (replyTo && !entry.waiters.includes(replyTo)) entry.waiters.push(replyTo);
    return { state: 'pending' };
  }

  /** Records a command accepted for execution. */
  begin(id: string, replyTo: string | undefined, deadline: number): void {
    this.entries.set(id, { waiters: replyTo ? [replyTo] : [], deadline });
  }

  /** Stores the reply of `id` and returns every subject that waits for it. */
  complete(id: string, reply: string): string[] {
    const entry = this.entries.get(id);
    if (!entry) return [];
    entry.reply = reply;
    const waiters = entry.waiters;
    entry.waiters = [];
    this.evict();
    return waiters;
  }

  /** Forgets a command that was not executed (dropped past its deadline), returning its waiters. */
  forget(id: string): string[] {
    const entry = this.entries.get(id);
    this.entries.delete(id);
    return entry?.waiters ?? [];
  }

  private evict(): void {
    const now = Date.now();
    for (const [id, entry] of this.entries) {
      // Pending entries stay: dropping one would let its retry run the command a second time.
      if (!entry.reply) continue;
      if (this.entries.size <= this.limit && entry.deadline >= now) return;
      this.entries.delete(id);
    }
  }
}
