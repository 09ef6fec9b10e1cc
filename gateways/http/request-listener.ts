import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';

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
