/**
 * The one pool of media tool processes of this process (`media_tools.*` startup keys,
 * docs/2026-11-29-media-tool-pool.md): every ffprobe and ffmpeg a request starts runs as a job
 * here, so one member's burst of asks (or everyone's) costs at most `concurrency` processes,
 * `queue_size` waiting jobs, and `resource_exhausted` with a Retry-After beyond. Jobs are keyed by what they
 * read (the probe of one file, the extraction of one of its streams): asks for the same key
 * share one run. The RTMP transmuxer is not a job of this pool: it lives as long as its stream,
 * and the streams bound it (gateways/rtmp/hls-transmuxer.ts).
 */
import type { Logger } from '../../observability/index.js';
import { runTool, type MediaToolName, type ToolLimits, type ToolRun } from './run-tool.js';
import { WorkPool, type PoolOutcome } from './work-pool.js';

export interface MediaToolsOptions {
  concurrency: number;
  queueSize: number;
  queueWaitMs: number;
  logger: Logger;
}

/** What the metrics see (media/tools/tool-metrics.ts). */
export interface MediaToolsObserver {
  job(outcome: PoolOutcome): void;
  process(tool: MediaToolName): void;
}

export class MediaTools {
  private readonly pool: WorkPool;
  private observer: MediaToolsObserver | undefined;
  readonly logger: Logger;

  constructor(options: MediaToolsOptions) {
    this.logger = options.logger;
    this.pool = new WorkPool(
      { concurrency: options.concurrency, queueSize: options.queueSize, queueWaitMs: options.queueWaitMs, what: 'media tools (ffprobe, ffmpeg)', retryAfterSeconds: 5 },
      (outcome) => this.observer?.job(outcome),
    );
  }

  /** Reports jobs and processes to `observer` (the process's metrics). */
  observe(observer: MediaToolsObserver): void {
    this.observer = observer;
  }

  get running(): number {
    return this.pool.running;
  }

  get queued(): number {
    return this.pool.queued;
  }

  /** Runs `job` as one job of the pool; an ask with the same `key` while it runs or waits gets its result. */
  job<T>(key: string, job: () => Promise<T>): Promise<T> {
    return this.pool.run(key, job);
  }

  /** One tool process, inside a job. */
  run(tool: MediaToolName, args: string[], limits: ToolLimits): Promise<ToolRun> {
    this.observer?.process(tool);
    return runTool(tool, args, limits);
  }
}
