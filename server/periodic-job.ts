import type { Logger } from '../observability/index.js';

export interface PeriodicJob {
  /** Stops scheduling and waits for a run in progress to finish. */
  stop(): Promise<void>;
}

/**
 * Runs `run` every `intervalMs` (with ±10% jitter so replicas do not fire in lockstep),
 * never two runs of one job at once in this process. Jobs must themselves be safe when
 * several replicas run them at the same time; this only spaces them out.
 */
export function startPeriodicJob(options: { name: string; intervalMs: number; logger: Logger; run: () => Promise<unknown> }): PeriodicJob {
  const { name, intervalMs, logger, run } = options;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;

  const schedule = (): void => {
    if (stopped) return;
    const delay = intervalMs * (0.9 + Math.random() * 0.2);
    timer = setTimeout(() => {
      running = run()
        .then((result) => logger.debug({ job: name, result }, 'periodic job finished'))
        .catch((err: unknown) => logger.error({ job: name, err }, 'periodic job failed'))
        .finally(() => {
          running = undefined;
          schedule();
        });
    }, delay);
    timer.unref();
  };
  schedule();

  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
