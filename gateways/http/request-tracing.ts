import type { Middleware } from 'koa';
import { SpanKind, SpanStatusCode, startSpan } from '../../observability/index.js';
import { onResponseDone } from './response-done.js';
import { routeLabel } from './route-label.js';
import type { HttpState } from './state.js';

/**
 * A server span per request, continuing the caller's trace when it sent a W3C `traceparent`
 * (else a new trace), named by method and route template once the route is known. Mounted
 * only when tracing is on (observability/tracing.ts). The span ends with the response, so a
 * streamed body's time is in it.
 */
export function requestTracing(): Middleware<HttpState> {
  return (ctx, next) => {
    const traced = startSpan(`${ctx.method}`, {
      kind: SpanKind.SERVER,
      parent: ctx.headers,
      external: true,
      attributes: () => ({ 'http.request.method': ctx.method, 'url.path': ctx.path, 'svc.request.id': ctx.state.requestId }),
    });
    if (!traced) return next();
    ctx.state.trace = traced.fields;
    const { span } = traced;
    if (!span.isRecording()) return next();
    onResponseDone(ctx, ({ aborted }) => {
      const route = routeLabel(ctx);
      span.updateName(`${ctx.method} ${route}`);
      span.setAttribute('http.route', route);
      span.setAttribute('http.response.status_code', ctx.status);
      if (aborted) span.setAttribute('svc.aborted', true);
      if (ctx.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    });
    return next();
  };
}
