/**
 * CORS for everything under `/media/` (proxied media, livestreams), from the runtime setting
 * `cors.allowedOrigins`, read at each request so a change applies at once on every replica.
 * It is separate from the API's startup list (`server.cors_allowed_origins`, gateways/http/cors.ts),
 * which does not decide for these paths: media may be embedded by sites that may not call the API.
 * Media URLs carry their grant, so no credentials are involved: an allowed origin is echoed,
 * `Range` may be sent, and the headers a player needs to seek are exposed.
 */
import cors from '@koa/cors';
import type { Middleware } from 'koa';
import type { SettingsReader } from '../../settings/index.js';
import type { HttpState } from '../http/state.js';
import { REQUEST_ID_HEADER } from '../request-id.js';

export const MEDIA_PREFIX = '/media/';

export function isMediaPath(path: string): boolean {
  return path.startsWith(MEDIA_PREFIX);
}

export function mediaCors(settings: SettingsReader): Middleware<HttpState> {
  const policy = cors({
    origin: (ctx) => {
      const origin = ctx.get('Origin');
      // '' tells @koa/cors to add no CORS headers: the browser blocks the answer.
      return origin !== '' && settings.get('cors.allowedOrigins').includes(origin) ? origin : '';
    },
    allowMethods: ['GET', 'HEAD', 'OPTIONS'],
    allowHeaders: ['range'],
    exposeHeaders: ['content-range', 'accept-ranges', 'content-length', 'content-type', REQUEST_ID_HEADER],
    maxAge: 600,
    keepHeadersOnError: false,
  });
  return async (ctx, next) => {
    if (isMediaPath(ctx.path)) await policy(ctx, next);
    else await next();
  };
}
