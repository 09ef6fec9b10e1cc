import Router from '@koa/router';
import type { Registry } from 'prom-client';
import type { HttpState } from './state.js';

/** `GET /metrics` in the Prometheus text exposition format. */
export function metricsRoutes(registry: Registry): Router<HttpState> {
  const router = new Router<HttpState>();
  router.get('/metrics', async (ctx) => {
    const text = await registry.metrics();
    ctx.set('Cache-Control', 'no-store');
    ctx.body = text;
    // Set after the body: assigning a string body would otherwise pick text/plain or html.
    ctx.type = registry.contentType;
  });
  return router;
}
