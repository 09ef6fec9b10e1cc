/**
 * The media proxy as the media tools meet it, for tests that run them without a whole gateway
 * (Postgres, NATS, accounts): a loopback listener serving `/media/proxy/<token>/<name>` with the
 * real `MediaProxy`, its upstream client and its address policy (loopback allowed, as
 * test/media/media-bed.ts allows it). What it leaves out is the route's grant and membership
 * checks: a token here is any name the test registered for an upstream URL. The URL a tool
 * reads, the Range handling and the proxy's error bodies are those of the service.
 */
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pipeline } from 'node:stream';
import type { MediaItem } from '../../../contracts/room/model.js';
import { AppError, isAppError } from '../../../errors/index.js';
import { isSlicePieces } from '../../../media/cache/types.js';
import { writePieces } from '../../../media/cache/write-pieces.js';
import { MediaGrants } from '../../../media/media-grant.js';
import { directProvider } from '../../../media/providers/direct.js';
import { AddressPolicy } from '../../../media/proxy/address-policy.js';
import { MediaProxy } from '../../../media/proxy/media-proxy.js';
import { fileNameOf, proxyUrl } from '../../../media/proxy/proxy-url.js';
import { Resolutions } from '../../../media/proxy/resolutions.js';
import { UpstreamClient } from '../../../media/proxy/upstream-client.js';

export interface ProxyFront {
  /** The absolute proxy URL of the direct item at `upstreamUrl`. */
  urlFor(upstreamUrl: string): string;
  /** Requests the front received, as `path range`. */
  requests: string[];
  stop(): Promise<void>;
}

export async function startProxyFront(): Promise<ProxyFront> {
  const client = new UpstreamClient({ policy: new AddressPolicy(['127.0.0.0/8']), headersTimeoutMs: 10_000, idleTimeoutMs: 10_000, maxRedirects: 5 });
  const proxy = new MediaProxy({ client, resolutions: new Resolutions(), grants: new MediaGrants(randomBytes(32)), playlistLimitBytes: 1 << 20 });
  const items = new Map<string, MediaItem>();
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    requests.push(`${req.url ?? ''} ${req.headers.range ?? ''}`);
    const token = (req.url ?? '').split('/')[3] ?? '';
    const item = items.get(token);
    const aborter = new AbortController();
    res.once('close', () => {
      if (!res.writableFinished) aborter.abort();
    });
    const fail = (err: unknown) => {
      const error = isAppError(err) ? err : new AppError('internal', 'the proxy front failed', [], { cause: err });
      if (res.headersSent) return void res.destroy();
      res.writeHead(error.status, { 'content-type': 'application/json' }).end(JSON.stringify(error.toJSON()));
    };
    if (!item) return fail(new AppError('not_found', 'no such media link'));
    const grant = { roomId: 'r', userId: 'u', sessionId: 's', mediaId: item.id, resource: '', expiresAt: Date.now() + 60_000 };
    proxy
      .serve({ grant, item, provider: directProvider }, { method: req.method === 'HEAD' ? 'HEAD' : 'GET', range: req.headers.range, signal: aborter.signal })
      .then(async (answer) => {
        if (answer.release) res.once('close', answer.release);
        res.writeHead(answer.status, answer.headers);
        if (isSlicePieces(answer.body)) return writePieces(res, answer.body);
        if (answer.body === null || Buffer.isBuffer(answer.body)) return void res.end(answer.body ?? undefined);
        pipeline(answer.body, res, () => undefined);
      })
      .catch(fail);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    urlFor(upstreamUrl) {
      const token = randomBytes(8).toString('hex');
      items.set(token, { id: token, title: 't', url: upstreamUrl, provider: 'direct', headers: {}, subtitles: [], live: false, proxy: true, seekable: 'unknown', reach: null, addedBy: 'u', addedAt: 0, folderId: null });
      return `${base}${proxyUrl(token, fileNameOf(upstreamUrl))}`;
    },
    requests,
    async stop() {
      client.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
