/**
 * Group commit for hot writes: items submitted while the database is busy with earlier
 * batches wait and go together as one statement (one round trip, one commit), so throughput
 * grows with load instead of queueing one commit per item. When the database is idle an item
 * goes out at once, alone: batching adds no delay under light load.
 */
export interface WriteBatcherOptions {
  /** Largest batch one call writes. */
  maxBatch: number;
  /** Batches running at once; leaves the rest of the pool to other queries. */
  maxInFlight: number;
}

/**
 * `write` gets the items of one batch and answers one outcome per item, in order: a value, or
 * an Error for that item alone. A rejected `write` fails every item of the batch.
 */
export type BatchWrite<I, R> = (items: I[]) => Promise<Array<R | Error>>;

interface Pending<I, R> {
  item: I;
  resolve(value: R): void;
  reject(err: unknown): void;
}

export class WriteBatcher<I, R> {
  private queue: Array<Pending<I, R>> = [];
  private inFlight = 0;
  private scheduled = false;

  constructor(
    private readonly write: BatchWrite<I, R>,
    private readonly options: WriteBatcherOptions,
  ) {}

  submit(item: I): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.schedule();
    });
  }

  /**
   * Items submitted in the same event-loop turn (turns of many actors finish together after
   * one network read) share the first batch: sending waits for the check phase.
   */
  private schedule(): void {
    if (this.scheduled || this.inFlight >= this.options.maxInFlight || this.queue.length === 0) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      while (this.inFlight < this.options.maxInFlight && this.queue.length > 0) {
        void this.run(this.queue.splice(0, this.options.maxBatch));
      }
    });
  }

  private async run(batch: Array<Pending<I, R>>): Promise<void> {
    this.inFlight += 1;
    try {
      const outcomes = await this.write(batch.map((pending) => pending.item));
      if (outcomes.length !== batch.length) {
        throw new Error(`batch write answered ${outcomes.length} outcomes for ${batch.length} items`);
      }
      batch.forEach((pending, i) => {
        const outcome = outcomes[i] as R | Error;
        if (outcome instanceof Error) pending.reject(outcome);
        else pending.resolve(outcome);
      });
    } catch (err) {
      for (const pending of batch) pending.reject(err);
    } finally {
      this.inFlight -= 1;
      this.schedule();
    }
  }
}
