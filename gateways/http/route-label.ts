import type { ParameterizedContext } from 'koa';
import { isPreflight } from './cors.js';

/**
 * The route a request matched, as its template (`/api/rooms/:id`), for metrics and logs.
 * Raw paths would give every room and user its own time series, so requests that matched
 * no route share one label.
 */
export function routeLabel(ctx: ParameterizedContext): string {
  // @koa/router records the template here; it is not part of its public context type.
  const matched = (ctx as { _matchedRoute?: string | RegExp })._matchedRoute;
  if (matched !== undefined) return String(matched);
  return isPreflight(ctx) ? '(preflight)' : '(unmatched)';
}
