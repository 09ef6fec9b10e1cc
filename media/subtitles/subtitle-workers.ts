/**
 * The worker threads subtitle files are decoded, checked and converted in (subtitle-worker.ts):
 * a slow file, or many at once, cannot stall the event loop that answers every other request
 * and times the rooms' playback. A few threads (one per spare core, at most 2), started on first
 * use and unreferenced while idle; jobs wait in a bounded line with a deadline (a `WorkPool`,
 * `resource_exhausted` with a Retry-After past it), and a job that overruns its deadline has its thread
 * ended and replaced. A refusal of the file comes back as a `SubtitleTextError`.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { SUBTITLE_LIMITS, type SubtitleFormatName } from '../../contracts/room/subtitles.js';
import { AppError } from '../../errors/index.js';
import { WorkPool } from '../tools/work-pool.js';
import type { StoredSubtitle, SubtitleJob, SubtitleJobResult, TrackText } from './subtitle-read.js';
import { SubtitleTextError } from './subtitle-text.js';

export interface SubtitleWorkersOptions {
  threads?: number;
  queueSize?: number;
  queueWaitMs?: number;
  timeoutMs?: number;
}

interface Reply {
  result?: SubtitleJobResult;
  error?: { refused: boolean; message: string };
}

export class SubtitleWorkers {
  private readonly pool: WorkPool;
  private readonly idle: Worker[] = [];
  private readonly all = new Set<Worker>();
  private readonly timeoutMs: number;
  private jobs = 0;

  constructor(options: SubtitleWorkersOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? SUBTITLE_LIMITS.convertTimeoutMs;
    this.pool = new WorkPool({
      concurrency: options.threads ?? Math.max(1, Math.min(2, availableParallelism() - 1)),
      // A job is milliseconds: a full line is a burst of uploads, not a backlog.
      queueSize: options.queueSize ?? 64,
      queueWaitMs: options.queueWaitMs ?? 10_000,
      what: 'subtitle workers',
      retryAfterSeconds: 2,
    });
  }

  /** An uploaded file's text and format, once it is known to serve within the caps. */
  async upload(bytes: Uint8Array, declared: SubtitleFormatName | undefined): Promise<StoredSubtitle> {
    // An upload's answer is always the stored form (subtitle-read.ts runSubtitleJob).
    return this.run({ kind: 'upload', bytes, ...(declared ? { declared } : {}) });
  }

  /** A file fetched (`bytes`) or stored (`text`) as served. */
  async serve(source: { bytes: Uint8Array } | { text: string }, declared: SubtitleFormatName | undefined): Promise<TrackText> {
    return (await this.run({ kind: 'serve', ...source, ...(declared ? { declared } : {}) })) as TrackText;
  }

  /** Ends the threads; a later job starts new ones. */
  async close(): Promise<void> {
    const workers = [...this.all];
    this.all.clear();
    this.idle.length = 0;
    await Promise.all(workers.map((worker) => worker.terminate()));
  }

  private run(job: SubtitleJob): Promise<SubtitleJobResult> {
    // Every job is its own: identical asks are shared by the caller's cache (text-cache.ts).
    this.jobs += 1;
    return this.pool.run(`subtitle-job-${this.jobs}`, () => this.onThread(job));
  }

  /** Runs `job` on an idle thread (the pool admits no more jobs than there are threads). */
  private onThread(job: SubtitleJob): Promise<SubtitleJobResult> {
    const worker = this.idle.pop() ?? this.start();
    return new Promise((resolve, reject) => {
      const done = (settle: () => void, keep: boolean) => {
        clearTimeout(timer);
        worker.off('message', answered);
        worker.off('error', failed);
        worker.off('exit', exited);
        if (keep && this.all.has(worker)) {
          worker.unref();
          this.idle.push(worker);
        } else this.drop(worker);
        settle();
      };
      const answered = (reply: Reply) => {
        if (reply.result) done(() => resolve(reply.result!), true);
        else if (reply.error?.refused) done(() => reject(new SubtitleTextError(reply.error!.message)), true);
        else done(() => reject(new AppError('internal', 'the subtitle file could not be read', [], { cause: new Error(reply.error?.message) })), true);
      };
      const failed = (err: Error) => done(() => reject(new AppError('internal', 'a subtitle worker failed', [], { cause: err })), false);
      const exited = (code: number) => done(() => reject(new AppError('internal', `a subtitle worker exited (${code})`)), false);
      const timer = setTimeout(
        () => done(() => reject(new AppError('deadline_exceeded', `reading the subtitle file took longer than ${Math.round(this.timeoutMs / 1000)} s`)), false),
        this.timeoutMs,
      );
      worker.on('message', answered);
      worker.once('error', failed);
      worker.once('exit', exited);
      // Referenced only while a job runs: an idle thread does not keep the process alive.
      worker.ref();
      worker.postMessage(job);
    });
  }

  private start(): Worker {
    const worker = new Worker(new URL('./subtitle-worker.js', import.meta.url));
    worker.unref();
    this.all.add(worker);
    // A thread that fails or ends between jobs is forgotten, so no job is posted to it.
    worker.on('error', () => this.drop(worker));
    worker.on('exit', () => this.drop(worker));
    return worker;
  }

  private drop(worker: Worker): void {
    this.all.delete(worker);
    const index = this.idle.indexOf(worker);
    if (index !== -1) this.idle.splice(index, 1);
    void worker.terminate().catch(() => undefined);
  }
}
