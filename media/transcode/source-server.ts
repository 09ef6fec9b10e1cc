/**
 * What a transcoder's ffprobe and ffmpeg read: the items' media served on loopback by this
 * process's own media proxy (media/proxy/media-proxy.ts), so the address policy, the
 * re-checked redirects, the provider's headers and scope and the re-resolution of expiring
 * links apply to every byte a tool reads, exactly as for a viewer; ffmpeg's own HTTP client is
 * never pointed at an upstream. Each open source is one unguessable path that lives while its
 * job does, on a listener bound to 127.0.0.1 (another process of the machine that guessed a
 * path would still only read what the job reads). A gateway's proxy answers members with
 * signed grants; this one answers only the tools of its own process, so it has no grants.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { MediaItem } from '../../contracts/room/model.js';
import { AppError, isAppError } from '../../errors/index.js';
import { isSlicePieces } from '../cache/types.js';
import { writePieces } from '../cache/write-pieces.js';
import type { MediaProvider } from '../provider.js';
import type { MediaProxy } from '../proxy/media-proxy.js';

/** One item's media, open for the tools: its loopback URL until `close`. */
export interface OpenSource {
  url: string;
  close(): void;
}

interface Target {
  roomId: string;
  item: MediaItem;
  provider: MediaProvider;
}

export class SourceServer {
  private readonly targets = new Map<string, Target>();
  private constructor(
    private readonly server: Server,
    private readonly proxy: MediaProxy,
  ) {}

  static async start(proxy: MediaProxy): Promise<SourceServer> {
    const server = createServer();
    const sources = new SourceServer(server, proxy);
    server.on('request', (req, res) => void sources.answer(req, res));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    return sources;
  }

  /** Serves `item` as read in `roomId` under a new path; `name` ends the URL (ffmpeg logs it). */
  open(roomId: string, item: MediaItem, provider: MediaProvider, name = 'media'): OpenSource {
    const token = randomBytes(24).toString('base64url');
    this.targets.set(token, { roomId, item, provider });
    const { port } = this.server.address() as AddressInfo;
    return { url: `http://127.0.0.1:${port}/${token}/${encodeURIComponent(name)}`, close: () => this.targets.delete(token) };
  }

  close(): Promise<void> {
    this.targets.clear();
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private async answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const token = (req.url ?? '').split('/')[1] ?? '';
    const target = this.targets.get(token);
    if (!target || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404).end();
      return;
    }
    const aborter = new AbortController();
    res.once('close', () => {
      if (!res.writableFinished) aborter.abort();
    });
    try {
      const answer = await this.proxy.serve(
        { grant: { roomId: target.roomId, userId: 'transcoder', sessionId: 'transcoder', mediaId: target.item.id, resource: '', expiresAt: Number.MAX_SAFE_INTEGER }, item: target.item, provider: target.provider },
        { method: req.method === 'HEAD' ? 'HEAD' : 'GET', range: req.headers.range, signal: aborter.signal },
      );
      if (answer.release) res.once('close', answer.release);
      res.writeHead(answer.status, answer.headers);
      if (isSlicePieces(answer.body)) await writePieces(res, answer.body);
      else if (answer.body === null || req.method === 'HEAD') {
        if (answer.body && 'destroy' in answer.body) answer.body.destroy();
        res.end();
      } else if (Buffer.isBuffer(answer.body)) res.end(answer.body);
      else answer.body.pipe(res);
    } catch (err) {
      // In the proxy's error shape, so the reader of the first bytes passes the refusal on (a
      // refused address is `forbidden`, with the proxy's sentence).
      const error = isAppError(err) ? err : new AppError('bad_gateway', 'the media could not be read');
      if (!res.headersSent) res.writeHead(error.status, { 'content-type': 'application/json' }).end(JSON.stringify({ code: error.code, message: error.message }));
      else res.destroy();
    }
  }
}
