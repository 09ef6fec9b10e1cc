/**
 * The service worker (built as /sw.js by web/build/service-worker.ts; decisions in
 * docs/2026-11-29-installable-app.md). It keeps the app shell (the index page, the start-up
 * JavaScript, every page's chunk and stylesheet) in a cache named for the build, and answers
 * page navigations with that shell, so a repeat visit paints without waiting for the network and
 * an offline one still opens (the page then says it is offline). Built files under /assets/ are
 * hashed, so the ones fetched later (player libraries) are kept too, for good.
 *
 * Never cached, never answered from a cache: the API, media, uploads and anything not a GET, the
 * metrics and health endpoints, other origins (media hosts, embedded players). Those requests are
 * not touched at all: the browser sends them as if there were no worker. The realtime socket
 * never passes through a service worker.
 *
 * A new build is found by the browser's update check (sw.js is served `no-cache`); it installs
 * beside the running one and waits until the page asks it to take over, which the page does
 * only after the person pressed Reload on the "new version" notice (register.ts).
 */
import type { ExtendableEvent, FetchEvent, PrecacheManifest, ServiceWorkerScope } from './sw-scope.js';

const scope = globalThis as unknown as ServiceWorkerScope;

// Written by the build (web/build/service-worker.ts) in place of this string.
const MANIFEST = JSON.parse('__SVC_PRECACHE_MANIFEST__') as PrecacheManifest;
const CACHE_PREFIX = 'svc-shell-';
const CACHE = `${CACHE_PREFIX}${MANIFEST.version}`;
const SHELL = '/index.html';
const PRECACHED = new Set(MANIFEST.files);
/**
 * The gateway answers `Vary: Origin` (CORS); a module script sends an Origin header that the
 * install's fetches did not, so a match honouring Vary would miss every script offline. Each
 * built file has one content, whoever asks.
 */
const MATCH: MultiCacheQueryOptions = { cacheName: CACHE, ignoreVary: true };

/** The gateway's own paths (gateways/http/web-client.ts SERVICE_PREFIXES): never the shell, never cached. */
const SERVICE_PREFIXES = ['/api/', '/metrics', '/health/', '/media/'];
/** Extensions the gateway answers as files, not pages (its ASSET_EXTENSIONS): a navigation to one goes to the network. */
const FILE_EXTENSIONS = new Set(['js', 'mjs', 'css', 'map', 'wasm', 'woff', 'woff2', 'svg', 'png', 'ico', 'webp', 'json', 'html', 'br', 'gz', 'txt', 'webmanifest']);

scope.addEventListener('install', (event: ExtendableEvent) => {
  event.waitUntil(
    scope.caches.open(CACHE).then((cache) =>
      // Unhashed files are fetched past the HTTP cache: the shell must be this build's.
      cache.addAll(MANIFEST.files.map((path) => new Request(path, { cache: path.startsWith('/assets/') ? 'default' : 'reload' }))),
    ),
  );
});

scope.addEventListener('activate', (event: ExtendableEvent) => {
  event.waitUntil(
    (async () => {
      const names = await scope.caches.keys();
      await Promise.all(names.filter((name) => name.startsWith(CACHE_PREFIX) && name !== CACHE).map((name) => scope.caches.delete(name)));
      // The first visit is controlled at once (no reload needed to work offline); an update
      // only activates once the page asked, so claiming then takes nobody by surprise.
      await scope.clients.claim();
    })(),
  );
});

scope.addEventListener('message', (event) => {
  const data = event.data as { type?: unknown } | null;
  if (data?.type === 'skip-waiting') event.waitUntil(scope.skipWaiting());
});

scope.addEventListener('fetch', (event: FetchEvent) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== scope.location.origin) return;
  if (url.pathname === '/api' || SERVICE_PREFIXES.some((prefix) => url.pathname.startsWith(prefix))) return;
  if (request.mode === 'navigate') {
    if (!FILE_EXTENSIONS.has(extension(url.pathname))) event.respondWith(shell(request));
    return;
  }
  if (request.headers.has('range')) return;
  if (url.pathname.startsWith('/assets/') || PRECACHED.has(url.pathname)) event.respondWith(cacheFirst(event, url.pathname.startsWith('/assets/')));
});

/** Any page: the cached shell (the client routes in the browser), or the network before it is cached. */
async function shell(request: Request): Promise<Response> {
  const cached = await scope.caches.match(SHELL, MATCH);
  return cached ?? scope.fetch(request);
}

/** A built file from the cache; a hashed one fetched for the first time is kept (it never changes). */
async function cacheFirst(event: FetchEvent, hashed: boolean): Promise<Response> {
  const { request } = event;
  const cached = await scope.caches.match(request, MATCH);
  if (cached) return cached;
  const response = await scope.fetch(request);
  if (hashed && response.status === 200 && response.type === 'basic') {
    // Stored while the page already reads the answer (a player library is hundreds of KiB).
    const copy = response.clone();
    event.waitUntil(scope.caches.open(CACHE).then((cache) => cache.put(request, copy)));
  }
  return response;
}

function extension(pathname: string): string {
  const last = pathname.slice(pathname.lastIndexOf('/') + 1);
  const dot = last.lastIndexOf('.');
  return dot < 0 ? '' : last.slice(dot + 1).toLowerCase();
}
