import { stat } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type Koa from 'koa';
import send from 'koa-send';
import { AppError } from '../../errors/index.js';
import type { HttpState } from './state.js';

/**
 * The browser client (`web/`, built by Vite into `dist/web-client`), served from the API's
 * origin so cookies, passkeys and the realtime socket need no CORS. Paths the API does not
 * answer fall through to here: a built file when one exists, otherwise `index.html` (the
 * client routes in the browser). Decisions: docs/2026-11-23-web-client.md.
 */
export const WEB_CLIENT_ROOT = fileURLToPath(new URL('../../web-client/', import.meta.url));

/** Vite puts every hashed build output here; a changed file gets a new name, so it may be cached for good. */
const HASHED_PREFIX = '/assets/';
const INDEX = 'index.html';
/** The web app manifest (web/public/): its registered type, whatever a MIME table says of the extension. */
const MANIFEST = 'manifest.webmanifest';
/** What the build writes besides index.html (web/vite.config.ts, compress-assets.mjs): missing ones answer 404. */
const ASSET_EXTENSIONS = new Set(['.js', '.mjs', '.css', '.map', '.wasm', '.woff', '.woff2', '.svg', '.png', '.ico', '.webp', '.json', '.html', '.br', '.gz', '.txt', '.webmanifest']);

/**
 * Same-origin everything, except media: an item played without the media proxy (its `proxy`
 * switch off, or `proxy.movieProxy` off on this server) is fetched by the browser from the URL
 * a member added, so `media-src`/`connect-src` (hls.js and mpegts.js fetch with XHR/fetch) admit
 * http(s) hosts. Proxied items and livestreams come from this origin (`/media/`). The room's
 * stage and call (LiveKit) signal over a WebSocket to the SFU's own address (sfu.public_url), so
 * `connect-src` admits exactly that origin when there is an SFU; its media flows over WebRTC,
 * which CSP does not govern.
 * Scripts, styles, fonts and frames never come from elsewhere, except the embedded players the
 * service offers (YouTube's IFrame API script and its player frames: exactly the configured
 * origins); `wasm-unsafe-eval` is what OPAQUE's WebAssembly needs and does not allow `eval` of scripts.
 * The installable app (docs/2026-11-29-installable-app.md) needs `manifest-src 'self'` and the
 * service worker at /sw.js `worker-src 'self'`; `blob:` there is hls.js's demuxing worker.
 */
export function contentSecurityPolicy(embeds: ReadonlyArray<{ script: string; frameOrigin: string }> = [], sfuPublicUrl?: string): string {
  const scripts = [...new Set(embeds.map((embed) => new URL(embed.script).origin))];
  // `ws://host:port`: a WebSocket URL's origin is its scheme, host and port (the path does not matter to CSP).
  const sfu = sfuPublicUrl ? ` ${new URL(sfuPublicUrl).origin}` : '';
  const frames = [...new Set(embeds.map((embed) => embed.frameOrigin))];
  return [
    "default-src 'none'",
    ["script-src 'self' 'wasm-unsafe-eval'", ...scripts].join(' '),
    "style-src 'self'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    `connect-src 'self' https: http:${sfu}`,
    "media-src 'self' blob: https: http:",
    "worker-src 'self' blob:",
    "manifest-src 'self'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "object-src 'none'",
    ...(frames.length > 0 ? [`frame-src ${frames.join(' ')}`] : []),
  ].join('; ');
}

const SECURITY_HEADERS: Record<string, string> = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'same-origin',
  'Cross-Origin-Opener-Policy': 'same-origin',
  // The room's call publishes a camera (and a microphone, and a screen: allowed to the page itself by default).
  'Permissions-Policy': 'camera=(self), geolocation=(), payment=()',
};

/** Paths that belong to the service itself: never answered with the client's index page. */
const SERVICE_PREFIXES = ['/api/', '/metrics', '/health/', '/media/'];

export interface WebClientOptions {
  /** The built client; default `dist/web-client` beside the compiled server. */
  root?: string;
  /** The embedded players' origins the pages may load (the providers' `embed`). */
  embeds?: ReadonlyArray<{ script: string; frameOrigin: string }>;
  /** The SFU's address for browsers (sfu.public_url), when the service has one. */
  sfuPublicUrl?: string;
}

export function webClient(options: WebClientOptions = {}): Koa.Middleware<HttpState> {
  const root = options.root ?? WEB_CLIENT_ROOT;
  const headers = { ...SECURITY_HEADERS, 'Content-Security-Policy': contentSecurityPolicy(options.embeds, options.sfuPublicUrl) };
  return async (ctx, next) => {
    await next();
    if (ctx.status !== 404 || ctx.body != null) return;
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return;
    if (ctx.path === '/api' || SERVICE_PREFIXES.some((prefix) => ctx.path.startsWith(prefix))) return;

    const file = await builtFile(root, ctx.path);
    // A missing file of a kind the build makes is a broken link (an old asset, a typo), not a
    // page; any other path is a page, dots and all (/admin/settings/server.maxRoomsPerUser).
    const path = file ?? (ASSET_EXTENSIONS.has(extname(ctx.path).toLowerCase()) ? null : INDEX);
    if (path === null) return;
    if (path === INDEX && !(await exists(join(root, INDEX)))) {
      throw new AppError('not_found', 'the web client is not built: run `npm run build` (or `npm run dev`)');
    }
    ctx.set(headers);
    await send(ctx, path, {
      root,
      brotli: true,
      gzip: true,
      // Only hashed assets are immutable; the index page must be revalidated to pick up a new build.
      maxage: path.startsWith(HASHED_PREFIX.slice(1)) ? 365 * 24 * 3600 * 1000 : 0,
      immutable: path.startsWith(HASHED_PREFIX.slice(1)),
      // Unhashed files are revalidated on every fetch: sw.js above all, whose new bytes are how a
      // browser learns of a new build (the worker itself keeps the shell for offline visits).
      setHeaders: (res) => {
        if (!path.startsWith(HASHED_PREFIX.slice(1))) res.setHeader('Cache-Control', 'no-cache');
        if (path === MANIFEST) res.setHeader('Content-Type', 'application/manifest+json');
      },
    });
  };
}

/** The request path as a file under `root`, when it names one (never `..` outside it). */
async function builtFile(root: string, requestPath: string): Promise<string | null> {
  let relative: string;
  try {
    relative = decodeURIComponent(requestPath).replace(/^\/+/, '');
  } catch {
    return null;
  }
  if (relative === '' || relative.split('/').some((part) => part === '..' || part.startsWith('.'))) return null;
  return (await exists(join(root, relative))) ? relative : null;
}

async function exists(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}
