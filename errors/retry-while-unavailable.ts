import { AppError } from './app-error.js';

// The global timer rather than node:timers/promises: errors/ stays free of Node built-ins, so
// workflow code in Temporal's sandbox may import its entry.
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

const FIRST_PAUSE_MS = 250;
const PAUSE_CAP_MS = 2000;

/**
 * Runs `attempt` until it succeeds, fails with anything but `unavailable`, or `waitMs` has
 * passed since the first try; pauses 250 ms, doubling to 2 s, in between. For starts beside
 * dependencies that are still starting themselves (a Compose stack, a Kubernetes rollout):
 * "not reachable yet" is worth waiting for, a wrong password or a bad setting is not.
 */
export async function retryWhileUnavailable<T>(
  attempt: () => Promise<T>,
  waitMs: number,
  onRetry: (error: AppError, attemptNumber: number) => void,
): Promise<T> {
  const deadline = Date.now() + waitMs;
  for (let attemptNumber = 1; ; attemptNumber += 1) {
    try {
      return await attempt();
    } catch (err) {
      const remaining = deadline - Date.now();
      if (!(err instanceof AppError && err.code === 'unavailable') || remaining <= 0) throw err;
      onRetry(err, attemptNumber);
      await sleep(Math.min(PAUSE_CAP_MS, FIRST_PAUSE_MS * 2 ** (attemptNumber - 1), remaining));
    }
  }
}
