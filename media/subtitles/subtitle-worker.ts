/**
 * A subtitle worker thread (subtitle-workers.ts): runs one job at a time (subtitle-read.ts) and
 * answers its result, or the reason a file was refused. Here, not on the event loop that times
 * the rooms' playback: even in linear time, a 2 MiB file is milliseconds of one core.
 */
import { parentPort } from 'node:worker_threads';
import { runSubtitleJob, type SubtitleJob } from './subtitle-read.js';
import { SubtitleTextError } from './subtitle-text.js';

parentPort!.on('message', (job: SubtitleJob) => {
  try {
    parentPort!.postMessage({ result: runSubtitleJob(job) });
  } catch (err) {
    const refused = err instanceof SubtitleTextError;
    parentPort!.postMessage({ error: { refused, message: err instanceof Error ? err.message : String(err) } });
  }
});
