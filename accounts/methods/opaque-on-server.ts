/**
 * OPAQUE run by the server for a password it has in hand (the direct password transport):
 * verifying a direct sign-in against an OPAQUE record, and making a record from the password of
 * an account that still has only an Argon2id hash (its upgrade on its next direct sign-in).
 * Both run the client's side too, whose Argon2id stretching blocks for about 250 ms, so they run
 * in worker threads (opaque-on-server-worker.ts; one per spare core, at most 4), one job at a
 * time each, with a bounded queue: a burst of direct sign-ins waits or is told to retry, and the
 * rooms' event loop never stalls. A direct sign-in therefore costs about 250 ms of a worker
 * core, where an OPAQUE sign-in from the web page costs the server about 1.3 ms.
 * Decisions: docs/2026-11-26-one-sign-in-button.md.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { AppError } from '../../errors/index.js';
import type { OpaqueJob, OpaqueJobResult, OpaqueWorkerData } from './opaque-jobs.js';

/**
 * About 250 ms each: a full queue is half a minute of one worker's time. The per-address
 * sign-in budget (60 a minute) keeps one client from filling it; beyond it the answer is `busy`.
 */
const MAX_QUEUED = 128;

interface Pending {
  resolve(result: OpaqueJobResult): void;
  reject(error: Error): void;
}

interface Slot {
  worker: Worker;
  pending: Map<number, Pending>;
}

export class OpaqueOnServer {
  private readonly slots: Array<Slot | undefined>;
  private nextId = 0;

  constructor(
    private readonly serverSetup: string,
    workers = Math.max(1, Math.min(4, availableParallelism() - 1)),
  ) {
    this.slots = Array.from({ length: workers }, () => undefined);
  }

  /** The OPAQUE registration record for `password`, as a client would make it (RFC 9807 section 5). */
  async register(password: string, userIdentifier: string): Promise<string> {
    return ((await this.run({ kind: 'register', password, userIdentifier })) as { record: string }).record;
  }

  /**
   * Whether `password` opens `record`. A null record (no such account, or one without an OPAQUE
   * record) spends the same work and is false, so timing does not tell the two apart.
   */
  async verify(password: string, userIdentifier: string, record: string | null): Promise<boolean> {
    return ((await this.run({ kind: 'verify', password, userIdentifier, record })) as { ok: boolean }).ok;
  }

  /** Stops the workers; a later job starts new ones. */
  async close(): Promise<void> {
    const workers = this.slots.flatMap((slot) => (slot ? [slot.worker] : []));
    this.slots.fill(undefined);
    await Promise.all(workers.map((worker) => worker.terminate()));
  }

  private run(job: OpaqueJob): Promise<OpaqueJobResult> {
    const queued = this.slots.reduce((sum, slot) => sum + (slot?.pending.size ?? 0), 0);
    if (queued >= MAX_QUEUED) {
      return Promise.reject(new AppError('busy', 'too many password sign-ins are being checked right now; try again in a moment', [], { retryAfterSeconds: 5 }));
    }
    // The idle or least busy worker, started on first use.
    let index = 0;
    for (let i = 1; i < this.slots.length; i++) {
      if ((this.slots[i]?.pending.size ?? 0) < (this.slots[index]?.pending.size ?? 0)) index = i;
    }
    const slot = this.slots[index] ?? this.start(index);
    const id = ++this.nextId;
    return new Promise((resolve, reject) => {
      slot.pending.set(id, { resolve, reject });
      // Referenced only while a job waits: an idle worker does not keep the process alive.
      slot.worker.ref();
      slot.worker.postMessage({ id, job });
    });
  }

  private start(index: number): Slot {
    const worker = new Worker(new URL('./opaque-on-server-worker.js', import.meta.url), { workerData: { serverSetup: this.serverSetup } satisfies OpaqueWorkerData });
    const slot: Slot = { worker, pending: new Map() };
    worker.unref();
    worker.on('message', ({ id, result, error }: { id: number; result?: OpaqueJobResult; error?: string }) => {
      const pending = slot.pending.get(id);
      slot.pending.delete(id);
      if (slot.pending.size === 0) worker.unref();
      if (!pending) return;
      if (error !== undefined || result === undefined) pending.reject(new Error(`OPAQUE on the server failed: ${error ?? 'no result'}`));
      else pending.resolve(result);
    });
    const fail = (err: Error): void => {
      if (this.slots[index] === slot) this.slots[index] = undefined;
      for (const [id, pending] of slot.pending) {
        slot.pending.delete(id);
        pending.reject(err);
      }
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the OPAQUE worker exited (${code})`)));
    this.slots[index] = slot;
    return slot;
  }
}
