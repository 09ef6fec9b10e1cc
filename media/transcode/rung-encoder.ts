/**
 * One rung of one item's transcode: runs ffmpeg into the rung's folder (its shelf of the
 * process's SegmentStore) and hands out segments as they are finished. A segment on disk is
 * served at once. One that the running ffmpeg will reach within `reachSegments` is waited for;
 * any other is a seek: the run is replaced by one starting at that segment, which is cheap
 * because every run writes the same timeline (media/transcode/encoder-args.ts). Asks for one
 * segment share the run that makes it. A run stops once it is `aheadSegments` past the last
 * ask (nobody is watching that far ahead yet) and when nothing was asked for `idleMs`.
 *
 * A run is stopped with SIGKILL, never SIGTERM: on SIGTERM ffmpeg closes the segment it is
 * writing as if it were complete, and a short segment would then be served under its timeline
 * number; killed, it leaves only a `.tmp` file, which is removed. The first run's init segment
 * is kept and served for all runs (later runs write the same bytes: asserted in the test).
 *
 * The child: arguments as a list, no shell, PATH alone for its environment, stdin ignored
 * (media/tools/run-tool.ts); `-progress` on stdout gives its speed. What ffmpeg prints on
 * failure goes to the log with the proxy URL taken out; waiting asks get a sentence of ours.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { existsSync, readdirSync, renameSync, rmSync, statSync, watch, type FSWatcher } from 'node:fs';
import { join } from 'node:path';
import { AppError } from '../../errors/index.js';
import type { Logger } from '../../observability/index.js';
import type { RungPlan } from './encode-plan.js';
import { encoderArgs, segmentFileName } from './encoder-args.js';
import type { H264Encoder } from './hw-encoders.js';
import type { RungShelf } from './segment-store.js';

export interface RungEncoderOptions {
  plan: RungPlan;
  shelf: RungShelf;
  encoder: H264Encoder;
  /** Whether ffmpeg has zscale (HDR tone mapping): media/transcode/hw-encoders.ts `hasZscale`. */
  zscale: boolean;
  logger: Logger;
  /** A run stops this many segments past the last ask (default: 60 s of media). */
  aheadSegments?: number;
  /** An ask this many segments past what the run writes next waits for it instead of restarting (default 3). */
  reachSegments?: number;
  /** A run stops when nothing was asked for this long (default 60 s). */
  idleMs?: number;
}

/** What a rung encoder reports (for metrics and the log; tests wait on them). */
export interface RungEncoderEvents {
  runStarted: [{ segment: number }];
  segmentWritten: [{ segment: number; bytes: number }];
  /** ffmpeg's `-progress`, about once a second: `speed` in × real time, `mediaSeconds` reached on the timeline. */
  progress: [{ speed: number; mediaSeconds: number }];
  /** `stopped`: ended by us (a seek, running ahead, idle, close); otherwise ffmpeg ended by itself. */
  runEnded: [{ segment: number; code: number | null; signal: NodeJS.Signals | null; stopped: boolean }];
}

interface Run {
  start: number;
  /** The next segment this run writes. */
  next: number;
  child: ChildProcess;
  initName: string;
  stopped: boolean;
  ended: boolean;
  stderr: string;
  watcher: FSWatcher | undefined;
  gone: Promise<void>;
}

interface Waiter {
  /** A segment number, or -1 for the init segment. */
  n: number;
  resolve: (path: string) => void;
  reject: (error: unknown) => void;
}

const INIT = -1;
const INIT_FILE = 'init.mp4';
const DEFAULT_AHEAD_SECONDS = 60;
const DEFAULT_REACH_SEGMENTS = 3;
const DEFAULT_IDLE_MS = 60_000;
const STDERR_KEPT_CHARS = 4096;

/** The init segment a run from segment `s` writes (the first run's is kept as init.mp4). */
export const runInitName = (s: number) => `init-${s}.mp4`;

export class RungEncoder extends EventEmitter<RungEncoderEvents> {
  private run: Run | undefined;
  private readonly waiters = new Set<Waiter>();
  private initReady = false;
  private lastAsked = 0;
  private idleTimer: NodeJS.Timeout | undefined;
  private closed = false;
  private readonly ahead: number;
  private readonly reach: number;
  private readonly idleMs: number;

  constructor(private readonly options: RungEncoderOptions) {
    super();
    const { plan } = options;
    this.ahead = options.aheadSegments ?? Math.ceil(DEFAULT_AHEAD_SECONDS / plan.segmentSeconds);
    this.reach = options.reachSegments ?? DEFAULT_REACH_SEGMENTS;
    this.idleMs = options.idleMs ?? DEFAULT_IDLE_MS;
  }

  /** Whether ffmpeg is running for this rung. */
  get running(): boolean {
    return this.run !== undefined && !this.run.stopped;
  }

  /** The path of segment `n` once it is complete on disk. */
  segment(n: number, signal?: AbortSignal): Promise<string> {
    if (this.closed) return Promise.reject(new AppError('unavailable', 'this transcode is shutting down'));
    if (!Number.isInteger(n) || n < 0 || n >= this.options.plan.segmentCount) return Promise.reject(new AppError('not_found', `the media has no segment ${n}`));
    this.asked(n);
    const { shelf } = this.options;
    if (shelf.has(n)) {
      shelf.served(n, true);
      return Promise.resolve(join(shelf.folder, segmentFileName(n)));
    }
    const waiting = this.wait(n, signal);
    const run = this.run;
    if (!run || run.stopped || n < run.start || n > run.next + this.reach) this.startAt(n);
    return waiting.then((path) => {
      shelf.served(n, false);
      return path;
    });
  }

  /** The path of the init segment (the first run's), once written. */
  init(signal?: AbortSignal): Promise<string> {
    if (this.closed) return Promise.reject(new AppError('unavailable', 'this transcode is shutting down'));
    this.asked(this.lastAsked);
    const path = join(this.options.shelf.folder, INIT_FILE);
    if (this.initReady) return Promise.resolve(path);
    const waiting = this.wait(INIT, signal);
    if (!this.running) this.startAt(this.lastAsked);
    return waiting;
  }

  /** Stops ffmpeg (waiting until it is gone) and fails what still waits. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.idleTimer);
    const run = this.run;
    if (run) this.stop(run);
    this.failWaiters(() => true, new AppError('unavailable', 'this transcode is shutting down'));
    await run?.gone;
  }

  private asked(n: number): void {
    this.lastAsked = n;
    this.armIdle();
  }

  /** Stops the run `idleMs` after the last ask, or later while an ask still waits (a slow run is not idle). */
  private armIdle(): void {
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      if (this.waiters.size > 0) this.armIdle();
      else if (this.run) this.stop(this.run);
    }, this.idleMs);
    this.idleTimer.unref();
  }

  private wait(n: number, signal?: AbortSignal): Promise<string> {
    return new Promise<string>((resolve, reject) => {
      // The asker's own reason (an AbortError, or what it aborted with) is what it gets back.
      const reason = (): unknown => signal?.reason;
      if (signal?.aborted) {
        reject(reason());
        return;
      }
      const onAbort = () => {
        this.waiters.delete(waiter);
        reject(reason());
      };
      const waiter: Waiter = {
        n,
        resolve: (path) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(path);
        },
        reject: (error) => {
          signal?.removeEventListener('abort', onAbort);
          reject(error);
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiters.add(waiter);
    });
  }

  private settle(n: number, path: string): void {
    for (const waiter of [...this.waiters]) {
      if (waiter.n !== n) continue;
      this.waiters.delete(waiter);
      waiter.resolve(path);
    }
  }

  private failWaiters(which: (waiter: Waiter) => boolean, error: AppError): void {
    for (const waiter of [...this.waiters]) {
      if (!which(waiter)) continue;
      this.waiters.delete(waiter);
      waiter.reject(error);
    }
  }

  /** Replaces the run (if any) with one from segment `s`; asks the new run will not reach soon are failed, to be asked again. */
  private startAt(s: number): void {
    if (this.run) this.stop(this.run);
    this.failWaiters(
      (waiter) => waiter.n !== INIT && (waiter.n < s || waiter.n > s + this.reach),
      new AppError('unavailable', 'a seek elsewhere in the media moved its transcode; ask for the segment again'),
    );
    const { plan, shelf, encoder, zscale, logger } = this.options;
    const initName = runInitName(s);
    const args = encoderArgs(plan, { startSegment: s, folder: shelf.folder, initName, encoder, zscale });
    // PATH alone: nothing of this process's environment (a proxy setting, secrets) reaches ffmpeg.
    const child = spawn('ffmpeg', args, { stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: process.env.PATH ?? '/usr/bin:/bin' }, shell: false });
    const run: Run = { start: s, next: s, child, initName, stopped: false, ended: false, stderr: '', watcher: undefined, gone: Promise.resolve() };
    run.gone = new Promise<void>((resolve) => child.once('close', () => resolve()));
    this.run = run;
    shelf.writing = true;
    try {
      run.watcher = watch(shelf.folder, (_event, name) => {
        if (name && /^\d+\.m4s$/.test(name)) this.collect(run);
      });
      run.watcher.on('error', () => undefined);
    } catch (err) {
      // -progress (once a second) still finds the segments.
      logger.warn({ err }, 'cannot watch a transcode folder');
    }
    this.readProgress(run);
    child.stderr?.on('data', (chunk: Buffer) => {
      if (run.stderr.length < STDERR_KEPT_CHARS) run.stderr = (run.stderr + chunk.toString('utf8')).slice(0, STDERR_KEPT_CHARS);
    });
    child.on('error', (err) => {
      logger.error({ err }, 'could not start ffmpeg for a transcode');
      this.ended(run, null, null, new AppError('unavailable', 'the transcoder could not be started: it needs ffmpeg installed on the server', [], { cause: err }));
    });
    child.on('close', (code, signal) => this.ended(run, code, signal));
    logger.debug({ rung: plan.name, segment: s, encoder: encoder.label }, 'transcode run started');
    this.emit('runStarted', { segment: s });
  }

  private readProgress(run: Run): void {
    let pending = '';
    let fields = new Map<string, string>();
    run.child.stdout?.on('data', (chunk: Buffer) => {
      pending += chunk.toString('utf8');
      let newline = pending.indexOf('\n');
      while (newline >= 0) {
        const line = pending.slice(0, newline).trim();
        pending = pending.slice(newline + 1);
        newline = pending.indexOf('\n');
        const equals = line.indexOf('=');
        if (equals < 0) continue;
        const key = line.slice(0, equals);
        fields.set(key, line.slice(equals + 1));
        if (key !== 'progress') continue;
        const speed = Number.parseFloat(fields.get('speed') ?? '');
        const outUs = Number.parseInt(fields.get('out_time_us') ?? '', 10);
        fields = new Map();
        if (!run.stopped && Number.isFinite(speed)) {
          this.emit('progress', { speed, mediaSeconds: run.start * this.options.plan.segmentSeconds + (Number.isFinite(outUs) ? outUs / 1e6 : 0) });
        }
        this.collect(run);
      }
    });
  }

  /** Takes in the segments `run` has finished since the last look. */
  private collect(run: Run): void {
    const { shelf, plan } = this.options;
    while (!run.stopped && run.next < plan.segmentCount) {
      const n = run.next;
      const path = join(shelf.folder, segmentFileName(n));
      if (!shelf.has(n)) {
        if (!existsSync(path)) return;
        shelf.added(n, statSync(path).size);
      }
      run.next += 1;
      if (!this.initReady && existsSync(join(shelf.folder, run.initName))) {
        renameSync(join(shelf.folder, run.initName), join(shelf.folder, INIT_FILE));
        this.initReady = true;
        this.settle(INIT, join(shelf.folder, INIT_FILE));
      }
      this.emit('segmentWritten', { segment: n, bytes: shelf.sizes.get(n) ?? 0 });
      this.settle(n, path);
      if (n > this.lastAsked + this.ahead) this.stop(run);
    }
  }

  private stop(run: Run): void {
    if (run.stopped) return;
    run.stopped = true;
    // SIGKILL: on SIGTERM ffmpeg would close the half-written segment as a complete one.
    run.child.kill('SIGKILL');
    if (this.run === run) {
      this.run = undefined;
      this.options.shelf.writing = false;
    }
  }

  private ended(run: Run, code: number | null, signal: NodeJS.Signals | null, startFailure?: AppError): void {
    if (run.ended) return;
    run.ended = true;
    run.watcher?.close();
    const { shelf, plan, logger } = this.options;
    if (!run.stopped) this.collect(run);
    const byUs = run.stopped;
    if (this.run === run) {
      this.run = undefined;
      shelf.writing = false;
    }
    this.removeLeftovers(run);
    this.emit('runEnded', { segment: run.start, code, signal, stopped: byUs });
    if (byUs) {
      // Stopped for running ahead or idle while someone (a slow ask) still waits: carry on from there.
      const next = Math.min(...[...this.waiters].map((waiter) => (waiter.n === INIT ? this.lastAsked : waiter.n)));
      if (!this.closed && !this.run && Number.isFinite(next)) this.startAt(next);
      return;
    }
    if (startFailure || code !== 0) {
      if (!startFailure) {
        logger.warn({ rung: plan.name, segment: run.start, code, signal, stderr: run.stderr.split(plan.url).join('<media>').trim() }, 'ffmpeg could not transcode a proxied media file');
      }
      this.failWaiters(() => true, startFailure ?? new AppError('bad_gateway', `the media could not be transcoded (${plan.name}, from ${run.start * plan.segmentSeconds} s): the encoder stopped on an error`));
      return;
    }
    this.failWaiters(() => true, new AppError('bad_gateway', `the transcode (${plan.name}) ended before the segment asked for: the media is shorter than it said`));
  }

  /** Deletes what a killed run left half-written, and the init segments of earlier runs (the first run's is kept as init.mp4). */
  private removeLeftovers(run: Run): void {
    const folder = this.options.shelf.folder;
    try {
      for (const name of readdirSync(folder)) {
        const earlierInit = name.startsWith('init-') && name !== run.initName && name !== (this.run ? this.run.initName : '');
        if (name.endsWith('.tmp') || earlierInit) rmSync(join(folder, name), { force: true });
      }
    } catch {
      // the folder was dropped with the rung
    }
  }
}
