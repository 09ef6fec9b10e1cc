/**
 * The media tool pool's series (media/tools/media-tools.ts): what runs and waits now, what
 * became of each ask, and how many processes were started. A dashboard sees the pool fill up
 * (queued > 0 for long) before members see `resource_exhausted`.
 */
import { Counter, Gauge, type Registry } from 'prom-client';
import type { MediaTools } from './media-tools.js';
import type { PoolOutcome } from './work-pool.js';

const OUTCOMES: PoolOutcome[] = ['started', 'joined', 'queue_full', 'queue_timeout'];

export function mediaToolMetrics(registry: Registry, tools: MediaTools): void {
  new Gauge({
    name: 'svc_media_tools_running',
    help: 'Media tool jobs (ffprobe, ffmpeg) running now (at most media_tools.concurrency).',
    registers: [registry],
    collect() {
      this.set(tools.running);
    },
  });
  new Gauge({
    name: 'svc_media_tools_queued',
    help: 'Media tool jobs waiting for a place (at most media_tools.queue_size).',
    registers: [registry],
    collect() {
      this.set(tools.queued);
    },
  });
  const jobs = new Counter<'outcome'>({
    name: 'svc_media_tool_jobs_total',
    help: 'Asks for a media tool job: started, joined (an identical job was running or waiting), queue_full or queue_timeout (answered resource_exhausted).',
    labelNames: ['outcome'],
    registers: [registry],
  });
  const processes = new Counter<'tool'>({
    name: 'svc_media_tool_processes_total',
    help: 'Media tool processes started, by tool.',
    labelNames: ['tool'],
    registers: [registry],
  });
  // Every series exists from the start, so a dashboard sees 0 rather than no series.
  for (const outcome of OUTCOMES) jobs.inc({ outcome }, 0);
  for (const tool of ['ffprobe', 'ffmpeg']) processes.inc({ tool }, 0);
  tools.observe({ job: (outcome) => jobs.inc({ outcome }), process: (tool) => processes.inc({ tool }) });
}
