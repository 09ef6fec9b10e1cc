import type { Middleware } from 'koa';
import { onResponseDone } from './response-done.js';
import { routeLabel } from './route-label.js';
import type { HttpState } from './state.js';

const MEDIA_GRANT = /^(\/media\/[^/]+\/)[^/]+/;

/**
 * One structured line per request once its response is done. Only the path is logged:
 * query strings can carry tokens, and headers (Authorization, cookies) are left out on
 * purpose rather than redacted. Media paths carry a signed grant as their second segment
 * (`/media/proxy/<grant>/<name>`), a credential until it expires: it is logged as `<grant>`.
 */
export function accessLog(): Middleware<HttpState> {
  return async (ctx, next) => {
    const { method } = ctx;
    const path = ctx.path.replace(MEDIA_GRANT, '$1<grant>');
    onResponseDone(ctx, ({ durationMs, aborted }) => {
      ctx.state.log.info(
        {
          method,
          path,
          route: routeLabel(ctx),
          status: ctx.status,
          durationMs: Math.round(durationMs * 100) / 100,
          ...(aborted ? { aborted: true } : {}),
        },
        'http request',
      );
    });
    await next();
  };
}
