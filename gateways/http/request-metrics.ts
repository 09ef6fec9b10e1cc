import type { Middleware } from 'koa';
import type { HttpMetrics } from '../../observability/index.js';
import { onResponseDone } from './response-done.js';
import { routeLabel } from './route-label.js';
import type { HttpState } from './state.js';

/** Counts every request and its duration by method, route template and final status. */
export function requestMetrics(http: HttpMetrics): Middleware<HttpState> {
  return async (ctx, next) => {
    onResponseDone(ctx, ({ durationMs }) => {
      const labels = { method: ctx.method, route: routeLabel(ctx), status: String(ctx.status) };
      http.requests.inc(labels);
      http.duration.observe(labels, durationMs / 1000);
    });
    await next();
  };
}
