/**
 * Serves one proxied read: an item's file (through the slice cache when there is one), an
 * item's HLS playlist or DASH manifest rewritten to signed proxy URLs, or a resource a
 * playlist named, or one under a folder a manifest named.
 * It knows nothing of HTTP frameworks: the gateway route (gateways/media/proxy-routes.ts)
 * authorises, then hands the grant, the item and the client's method and Range here, and
 * writes the `ProxyAnswer` out.
 *
 * Only the provider's headers go upstream, plus Range and the cache's validators; a resource a
 * playlist names on another origin gets none of them (`providerHeadersFor`), nor does any hop
 * a redirect takes elsewhere (the upstream client binds them to their origin). An item whose
 * upstream has a `scope` (a library's folder) reads nothing outside it: a playlist's segment or
 * a manifest's folder elsewhere is refused (`forbidden`), and its headers go only inside. An upstream
 * that refuses (401/403/410) a resolved link, or a link about to expire, is resolved again
 * through the provider and read once more: the viewer does not notice.
 */
import { pipeline, Transform, type Readable } from 'node:stream';
import type { MediaItem } from '../../contracts/room/model.js';
import { AppError } from '../../errors/index.js';
import { isSlicePieces, type ByteRange, type ClientRead, type SliceCacheApi, type SlicePieces, type UpstreamReply, type Validators } from '../cache/types.js';
import type { SliceLease } from '../cache/slice-buffers.js';
import type { MediaGrant, MediaGrants } from '../media-grant.js';
import type { MediaProvider, Upstream } from '../provider.js';
import { upstreamReadKey } from '../read-key.js';
import { isPlaylistReply, rewritePlaylist } from './hls-rewrite.js';
import { isManifestReply, rewriteManifest } from './mpd-rewrite.js';
import { fileNameOf, proxyFolderUrl, proxyUrl } from './proxy-url.js';
import { readLimited } from './read-body.js';
import type { Resolutions } from './resolutions.js';
import type { FinalReply, UpstreamClient, UpstreamRequest } from './upstream-client.js';
import { isUnsafeSegment, isWithinScope } from './url-scope.js';

export interface ProxyAnswer {
  status: number;
  headers: Record<string, string>;
  /** Pieces are written with `writePieces` (media/cache/write-pieces.ts). */
  body: Readable | Buffer | SlicePieces | null;
  /** Call once the response has closed: a Buffer body may be a pooled buffer (CacheAnswer). */
  release?: () => void;
}

export interface ProxyRead extends ClientRead {
  signal: AbortSignal;
  /**
   * The request path after the grant token, as sent (still percent-encoded), with its query
   * string: under a folder grant (a DASH manifest's), the resource within the folder.
   */
  tail?: string;
}

/** What a proxied read is about, once the gateway has verified the grant and the member. */
export interface ProxyTarget {
  grant: MediaGrant;
  item: MediaItem;
  provider: MediaProvider;
}

export interface ProxyTraffic {
  /** Bytes of media sent to clients. */
  bytes(count: number): void;
  /** An upstream failure, by error code. */
  upstreamError(code: string): void;
}

export interface MediaProxyDeps {
  client: Pick<UpstreamClient, 'request'>;
  resolutions: Resolutions;
  grants: MediaGrants;
  cache?: SliceCacheApi;
  /** Largest HLS playlist read into memory for rewriting. */
  playlistLimitBytes: number;
  traffic?: ProxyTraffic;
}

/** Answers that mean "this signed link no longer works": resolve again. */
const REFUSED = new Set([401, 403, 410]);
/** Upstream headers a client needs to play and seek; nothing else of the upstream's is passed on. */
const PASSED_HEADERS = ['content-type', 'content-length', 'content-range', 'accept-ranges', 'etag', 'last-modified'];
const HLS_TYPE = 'application/vnd.apple.mpegurl';
const DASH_TYPE = 'application/dash+xml';
/** The grant resource of a folder a DASH manifest names: `folder:<absolute folder URL ending in />`. */
const FOLDER_RESOURCE = 'folder:';

export class MediaProxy {
  constructor(private readonly deps: MediaProxyDeps) {}

  async serve(target: ProxyTarget, read: ProxyRead): Promise<ProxyAnswer> {
    const { grant, item, provider } = target;
    const upstream = await this.deps.resolutions.get(grant.roomId, item, provider);
    if (grant.resource.startsWith(FOLDER_RESOURCE)) return this.serveInFolder(upstream, grant.resource.slice(FOLDER_RESOURCE.length), read);
    if (grant.resource !== '') return this.serveNamed(target, upstream, grant.resource, read);
    if (upstream.type === 'hls' || upstream.type === 'dash') {
      const reply = await this.fetchItem(target, 'GET', {}, read.signal);
      return upstream.type === 'hls' ? this.playlistAnswer(target, reply, read) : this.manifestAnswer(target, reply, read);
    }
    return this.serveFile(target, upstream, read);
  }

  /** A file: through the slice cache when there is one, else the client's Range straight upstream. */
  private async serveFile(target: ProxyTarget, upstream: Upstream, read: ProxyRead): Promise<ProxyAnswer> {
    const { cache } = this.deps;
    if (cache) {
      const answer = await cache.serve(
        { method: read.method, range: read.range },
        {
          // The credentials are part of what is cached: see media/read-key.ts.
          identity: upstreamReadKey(upstream),
          fetch: (range: ByteRange, validators: Validators | undefined, signal: AbortSignal) =>
            this.fetchItem(target, 'GET', { range: `bytes=${range.start}-${range.end}`, ...conditional(validators) }, signal),
        },
        read.signal,
      );
      if (answer.kind === 'passthrough') return this.passThrough(answer.reply);
      return {
        status: answer.status,
        headers: withSecurityHeaders(answer.headers),
        body: this.counted(answer.body),
        ...(answer.release ? { release: answer.release } : {}),
      };
    }
    const reply = await this.fetchItem(target, read.method, read.range ? { range: read.range } : {}, read.signal);
    return this.passThrough(reply);
  }

  /** A resource an HLS playlist named (its grant's resource is the upstream URL): a sub-playlist or a segment. */
  private async serveNamed(target: ProxyTarget, upstream: Upstream, url: string, read: ProxyRead): Promise<ProxyAnswer> {
    requireInScope(upstream, url, 'playlist');
    const playlist = /\.m3u8?$/i.test(safePath(url));
    const method = playlist ? 'GET' : read.method;
    const reply = await this.request({ url, method, ...boundHeaders(upstream, url), readHeaders: read.range && !playlist ? { range: read.range } : {}, signal: read.signal });
    if (playlist || isPlaylistReply(reply.headers['content-type'], reply.url)) return this.playlistAnswer(target, reply, read);
    return this.passThrough(reply);
  }

  /**
   * A resource under a folder a DASH manifest named: the folder's URL plus the request's tail
   * (a segment the player filled a template in for). Anything that resolves outside the
   * folder (`..`, another origin) is refused, and so is a segment that only an upstream which
   * decodes `%2F` before resolving `..` would take out of it (nginx does).
   */
  private async serveInFolder(upstream: Upstream, folder: string, read: ProxyRead): Promise<ProxyAnswer> {
    const tail = read.tail ?? '';
    if (!staysInFolder(tail)) throw new AppError('forbidden', 'this media link only reads the folder its manifest named');
    let url: URL;
    try {
      url = new URL(tail, folder);
    } catch {
      throw new AppError('invalid_argument', 'the media path is not a URL');
    }
    if (tail === '' || !url.href.startsWith(folder)) throw new AppError('forbidden', 'this media link only reads the folder its manifest named');
    requireInScope(upstream, url.href, 'manifest');
    const reply = await this.request({ url: url.href, method: read.method, ...boundHeaders(upstream, url.href), readHeaders: read.range ? { range: read.range } : {}, signal: read.signal });
    return this.passThrough(reply);
  }

  private async manifestAnswer(target: ProxyTarget, reply: FinalReply, read: ProxyRead): Promise<ProxyAnswer> {
    this.requireOk(reply, 'DASH manifest');
    if (!isManifestReply(reply.headers['content-type'], reply.url) && !/xml/i.test(reply.headers['content-type'] ?? '')) {
      reply.body.destroy();
      throw new AppError('bad_gateway', `the upstream answered ${reply.headers['content-type'] ?? 'no content type'} for the DASH manifest`);
    }
    const text = (await readLimited(reply, this.deps.playlistLimitBytes, 'DASH manifest')).toString('utf8');
    const { grant } = target;
    const rewritten = Buffer.from(
      rewriteManifest(text, reply.url, (folder) => proxyFolderUrl(this.deps.grants.sign({ ...grant, resource: FOLDER_RESOURCE + folder }))),
      'utf8',
    );
    const headers = withSecurityHeaders({ 'content-type': DASH_TYPE, 'content-length': String(rewritten.length), 'cache-control': 'no-store' });
    return { status: 200, headers, body: read.method === 'HEAD' ? null : rewritten };
  }

  private async playlistAnswer(target: ProxyTarget, reply: FinalReply, read: ProxyRead): Promise<ProxyAnswer> {
    this.requireOk(reply, 'HLS playlist');
    const text = (await readLimited(reply, this.deps.playlistLimitBytes, 'HLS playlist')).toString('utf8');
    if (!text.trimStart().startsWith('#EXTM3U')) throw new AppError('bad_gateway', 'the upstream HLS playlist does not start with #EXTM3U');
    const { grant } = target;
    const rewritten = Buffer.from(
      rewritePlaylist(text, reply.url, (url) => proxyUrl(this.deps.grants.sign({ ...grant, resource: url }), fileNameOf(url))),
      'utf8',
    );
    const headers = withSecurityHeaders({ 'content-type': HLS_TYPE, 'content-length': String(rewritten.length), 'cache-control': 'no-store' });
    return { status: 200, headers, body: read.method === 'HEAD' ? null : rewritten };
  }

  /** Reads the item's resolved upstream; one refusal or a near expiry re-resolves and reads again. */
  private async fetchItem(target: ProxyTarget, method: 'GET' | 'HEAD', extra: Record<string, string>, signal: AbortSignal): Promise<FinalReply> {
    const { grant, item, provider } = target;
    // The current answer, not the one the read started with: a long read outlives a link.
    const upstream = await this.deps.resolutions.get(grant.roomId, item, provider);
    requireInScope(upstream, upstream.url, 'item');
    const reply = await this.request({ url: upstream.url, method, ...boundHeaders(upstream, upstream.url), readHeaders: extra, signal });
    if (!REFUSED.has(reply.status)) return reply;
    reply.body.destroy();
    const fresh = await this.deps.resolutions.refresh(grant.roomId, item, provider, upstream);
    requireInScope(fresh, fresh.url, 'item');
    return this.request({ url: fresh.url, method, ...boundHeaders(fresh, fresh.url), readHeaders: extra, signal });
  }

  private async request(request: UpstreamRequest & { method: 'GET' | 'HEAD' }): Promise<FinalReply> {
    try {
      return await this.deps.client.request(request);
    } catch (err) {
      this.deps.traffic?.upstreamError(err instanceof AppError ? err.code : 'internal');
      throw err;
    }
  }

  /** The upstream's answer as it is (status, the headers a player needs, the body streamed). */
  private passThrough(reply: UpstreamReply): ProxyAnswer {
    this.requireOk(reply, 'media');
    const headers: Record<string, string> = {};
    for (const name of PASSED_HEADERS) {
      const value = reply.headers[name];
      if (value !== undefined) headers[name] = value;
    }
    // nginx, like many servers, omits Accept-Ranges on a 206; the answer itself shows ranges work.
    if (reply.status === 206 && headers['accept-ranges'] === undefined) headers['accept-ranges'] = 'bytes';
    return { status: reply.status, headers: withSecurityHeaders(headers), body: this.counted(reply.body) };
  }

  /** 2xx and 416 (a Range past the end, with the size in Content-Range) go to the client; anything else is a bad gateway. */
  private requireOk(reply: UpstreamReply, what: string): void {
    if ((reply.status >= 200 && reply.status < 300) || reply.status === 416 || reply.status === 304) return;
    reply.body.destroy();
    this.deps.traffic?.upstreamError(`http_${reply.status}`);
    throw new AppError('bad_gateway', `the upstream answered HTTP ${reply.status} for the ${what}`);
  }

  /**
   * The body with its bytes counted on the way out (a Buffer's as it is handed over). A
   * pipeline, not a 'data' listener: a listener would start the stream flowing before the
   * response is piped; and a client that goes away destroys the counter, which destroys the
   * upstream body with it.
   */
  private counted(body: Readable | Buffer | SlicePieces | null): Readable | Buffer | SlicePieces | null {
    const { traffic } = this.deps;
    if (!body || !traffic) return body;
    if (Buffer.isBuffer(body)) {
      traffic.bytes(body.length);
      return body;
    }
    if (isSlicePieces(body)) return { pieces: countedPieces(body.pieces, traffic) };
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        traffic.bytes(chunk.length);
        done(null, chunk);
      },
    });
    pipeline(body, counter, () => undefined);
    return counter;
  }
}

async function* countedPieces(pieces: AsyncGenerator<SliceLease>, traffic: ProxyTraffic): AsyncGenerator<SliceLease> {
  for await (const lease of pieces) {
    traffic.bytes(lease.bytes.length);
    yield lease;
  }
}

/**
 * The item's headers (an `Authorization`, a cookie, a Referer its host wants) are meant for the
 * item's own origin, or for its scope when it has one (a library's folder). A playlist may name
 * segments, keys or variants anywhere, and whoever serves them, or whoever wrote the playlist,
 * must not receive the item's credentials.
 */
function providerHeadersFor(upstream: Upstream, url: string): Record<string, string> {
  if (upstream.scope !== undefined) return isWithinScope(url, upstream.scope) ? { ...upstream.headers } : {};
  const own = originOf(upstream.url);
  return own !== undefined && originOf(url) === own ? { ...upstream.headers } : {};
}

/** The item's headers for a read of `url`, bound to the item's scope (or origin) across redirects too. */
function boundHeaders(upstream: Upstream, url: string): Pick<UpstreamRequest, 'headers' | 'headersScope'> {
  return { headers: providerHeadersFor(upstream, url), ...(upstream.scope !== undefined ? { headersScope: upstream.scope } : {}) };
}

/** `forbidden` when the item has a scope (a library's folder) and `url` is not inside it. */
function requireInScope(upstream: Upstream, url: string, named: 'item' | 'playlist' | 'manifest'): void {
  if (upstream.scope === undefined || isWithinScope(url, upstream.scope)) return;
  const what = named === 'item' ? 'this item\'s source' : named === 'playlist' ? 'this item\'s playlist names a resource that' : 'this item\'s manifest names a folder that';
  throw new AppError('forbidden', `${what} is outside the folder it may be read from (its library's folder); the media proxy reads nothing there`);
}

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

/** No path segment of `tail` is, or decodes to something with, a `.`/`..` step or a slash; and it decodes. */
function staysInFolder(tail: string): boolean {
  const path = tail.split('?')[0]!;
  return path.split('/').every((segment) => {
    try {
      decodeURIComponent(segment);
    } catch {
      return false;
    }
    return !isUnsafeSegment(segment);
  });
}

function conditional(validators: Validators | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  if (validators?.etag) headers['if-none-match'] = validators.etag;
  if (validators?.lastModified) headers['if-modified-since'] = validators.lastModified;
  return headers;
}

/** Proxied bytes are never a page: nothing in them may run or be sniffed into something that runs. */
function withSecurityHeaders(headers: Record<string, string>): Record<string, string> {
  return { ...headers, 'content-security-policy': "default-src 'none'", 'x-content-type-options': 'nosniff' };
}

function safePath(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return '';
  }
}
