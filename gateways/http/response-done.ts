import type { ParameterizedContext } from 'koa';

export interface ResponseOutcome {
  durationMs: number;
  /** True when the connection closed before the whole response was written. */
  aborted: boolean;
}

/**
 * Runs `done` once the response is finished or the client went away. Measuring at the
 * socket rather than after the middleware chain returns keeps streamed bodies (media proxy)
 * honest: their time is spent after the handlers have returned.
 */
export function onResponseDone(ctx: ParameterizedContext, done: (outcome: ResponseOutcome) => void): void {
  const started = performance.now();
  ctx.res.once('close', () => {
    done({ durationMs: performance.now() - started, aborted: !ctx.res.writableFinished });
  });
}
