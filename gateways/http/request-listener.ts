import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';

/** What Koa (and oidc-provider, a Koa app) hands Node's HTTP server. */
interface KoaApp {
  callback(): (req: IncomingMessage, res: ServerResponse) => Promise<void>;
}

/**
 * A Koa app as Node's `request` listener. Node ignores what a listener returns, so Koa's promise
 * is dropped here on purpose: Koa settles it itself (a thrown error goes to ctx.onerror and
 * becomes the response; the promise never rejects), and there is nothing left to await.
 */
export function requestListener(app: KoaApp): RequestListener {
  const handle = app.callback();
  return (req, res) => void handle(req, res);
}

/** Longer than the idle timeout of the usual proxies and load balancers (60 s). */
const KEEP_ALIVE_MS = 75_000;

/**
 * Node's HTTP server for a Koa app. An idle keep-alive connection is for the proxy in front or
 * the client to close, not us: a server that closes one just as the other side sends its next
 * request on it fails that request ("socket hang up", a 502 at the proxy). Load balancers keep
 * idle upstream connections 60 s; Node closes them after 5 s, and under load the test suite met
 * that race (fetch failed on a reused connection, after the client's event loop was busy). The
 * header timeout must exceed it.
 */
export function httpServer(app: KoaApp): Server {
  const server = createServer(requestListener(app));
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  server.headersTimeout = KEEP_ALIVE_MS + 1_000;
  return server;
}
