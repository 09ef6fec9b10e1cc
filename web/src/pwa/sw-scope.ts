/**
 * The few service-worker types sw.ts uses. The web client's tsconfig has the DOM lib, and the
 * WebWorker lib cannot sit beside it (they declare the same globals differently), so the worker
 * declares what it touches here: Cache, Request and Response are the DOM lib's own.
 */
export interface ExtendableEvent extends Event {
  waitUntil(promise: Promise<unknown>): void;
}

export interface FetchEvent extends ExtendableEvent {
  readonly request: Request;
  respondWith(response: Response | Promise<Response>): void;
}

export interface ExtendableMessageEvent extends ExtendableEvent {
  readonly data: unknown;
}

export interface ServiceWorkerScope {
  readonly location: Location;
  readonly caches: CacheStorage;
  readonly clients: { claim(): Promise<void> };
  skipWaiting(): Promise<void>;
  fetch(request: Request): Promise<Response>;
  addEventListener(type: 'install' | 'activate', listener: (event: ExtendableEvent) => void): void;
  addEventListener(type: 'fetch', listener: (event: FetchEvent) => void): void;
  addEventListener(type: 'message', listener: (event: ExtendableMessageEvent) => void): void;
}

/** What the page says to a waiting worker (register.ts): only after the person pressed Reload. */
export interface SkipWaitingMessage {
  type: 'skip-waiting';
}

/** What the build writes into sw.js (web/build/service-worker.ts). */
export interface PrecacheManifest {
  /** A digest of every built file: a new build is a new cache (and new bytes, so an update). */
  version: string;
  /** Root-relative paths: the index page, the start-up chunks, every page's chunk and stylesheet. */
  files: string[];
}
