/**
 * The only way the service reaches a media upstream (the proxy's reads, providers' API calls).
 * Every hop is checked before it is made: http or https only, the host resolved here and each
 * address judged by the `AddressPolicy`, the connection pinned to the address that was checked
 * (so a second DNS answer cannot point it elsewhere: DNS rebinding), redirects followed by hand
 * and re-checked, at most `maxRedirects` of them. Waits are bounded (connect plus response
 * headers, then body idleness), and failures become `bad_gateway` (502) or
 * `deadline_exceeded` (504) saying what went wrong.
 *
 * A request's headers come in two kinds, and a redirect treats them apart. `headers` are what an
 * item, a provider or a library connector adds (credentials of any spelling: `Authorization`,
 * `X-Emby-Token`, a cookie, an API key; a Referer): they are meant for one place, the first URL's
 * origin or the `headersScope` given, and a hop anywhere else gets none of them, nor does any hop
 * after it. `readHeaders` are the read's own (Range, the cache's validators, a body's
 * Content-Type, WebDAV's Depth): whoever ends up answering needs them, so they go on. Nothing
 * decides by header name, so a credential under a name nobody listed is dropped too.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { Readable } from 'node:stream';
import { AppError } from '../../errors/index.js';
import type { UpstreamReply } from '../cache/types.js';
import type { AddressPolicy } from './address-policy.js';
import { isWithinScope } from './url-scope.js';

export interface UpstreamClientOptions {
  policy: AddressPolicy;
  /** Longest wait for the connection and the response headers, per hop. */
  headersTimeoutMs: number;
  /** Longest silence while the body streams. */
  idleTimeoutMs: number;
  /** Redirects followed before giving up with `bad_gateway`. */
  maxRedirects: number;
}

export interface UpstreamRequest {
  url: string;
  /** PROPFIND: WebDAV listings (media/libraries/webdav.ts). */
  method?: 'GET' | 'HEAD' | 'POST' | 'PROPFIND';
  /**
   * The item's, provider's or connector's headers (credentials, tokens, a Referer), sent only to
   * hops inside `headersScope`: at the first hop outside it they are dropped for good. Never the
   * client's own headers.
   */
  headers?: Record<string, string>;
  /** The read's own headers (Range, If-None-Match, If-Modified-Since, a body's Content-Type, Depth): sent to every hop. */
  readHeaders?: Record<string, string>;
  /** A URL prefix ending in "/" (a library's root) that `headers` are bound to; default: the origin of `url`. */
  headersScope?: string;
  body?: Buffer;
  signal: AbortSignal;
}

/** The reply with the URL that finally answered (after redirects). */
export interface FinalReply extends UpstreamReply {
  url: string;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** What this client sends on every read, unless the request says otherwise. */
const CLIENT_HEADERS = { 'accept-encoding': 'identity', 'user-agent': 'svc-media-proxy' };

export class UpstreamClient {
  private readonly agents = {
    'http:': new http.Agent({ keepAlive: true, maxSockets: 256 }),
    'https:': new https.Agent({ keepAlive: true, maxSockets: 256 }),
  };

  constructor(private readonly options: UpstreamClientOptions) {}

  async request(request: UpstreamRequest): Promise<FinalReply> {
    let url = parseUpstreamUrl(request.url);
    let method = request.method ?? 'GET';
    let body = request.body;
    const bound = lowerCased(request.headers ?? {});
    const read: Record<string, string> = lowerCased(request.readHeaders ?? {});
    const firstOrigin = url.origin;
    const scope = request.headersScope;
    // Once a hop leaves the headers' scope they are gone: a redirect back cannot have chosen better.
    let boundGoes = true;
    for (let hop = 0; ; hop += 1) {
      boundGoes &&= scope === undefined ? url.origin === firstOrigin : isWithinScope(url.href, scope);
      // The item's own headers may replace the client's defaults (a User-Agent); the read's own come last (its Range).
      const headers = { ...CLIENT_HEADERS, ...(boundGoes ? bound : {}), ...read };
      const reply = await this.once(url, method, headers, body, request.signal);
      const location = reply.headers.location;
      if (!REDIRECTS.has(reply.status) || location === undefined) return { ...reply, url: url.href };
      reply.body.destroy();
      if (hop >= this.options.maxRedirects) {
        throw new AppError('bad_gateway', `the upstream redirected more than ${this.options.maxRedirects} times (last to ${location})`);
      }
      const next = parseUpstreamUrl(location, url);
      if (reply.status === 303 || ((reply.status === 301 || reply.status === 302) && method === 'POST')) {
        method = 'GET';
        body = undefined;
        delete read['content-type'];
      }
      url = next;
    }
  }

  close(): void {
    this.agents['http:'].destroy();
    this.agents['https:'].destroy();
  }

  /** The host's addresses, every one of them allowed; the first is the one connected to. */
  private async resolve(host: string, signal: AbortSignal): Promise<{ address: string; family: number }> {
    const literal = host.startsWith('[') ? host.slice(1, -1) : host;
    let addresses: Array<{ address: string; family: number }>;
    try {
      addresses = await dnsLookup(literal, { all: true, verbatim: true });
    } catch (err) {
      throw new AppError('bad_gateway', `the upstream host ${host} could not be resolved (${(err as NodeJS.ErrnoException).code ?? 'DNS error'})`, [], { cause: err });
    }
    signal.throwIfAborted();
    if (addresses.length === 0) throw new AppError('bad_gateway', `the upstream host ${host} has no address`);
    // All of them, not just the first: which one a client would pick is not ours to predict.
    for (const { address } of addresses) this.options.policy.check(literal, address);
    return addresses[0]!;
  }

  private async once(url: URL, method: string, headers: Record<string, string>, body: Buffer | undefined, signal: AbortSignal): Promise<UpstreamReply> {
    const pinned = await this.resolve(url.hostname, signal);
    const lookup: LookupFunction = (_host, options, callback) => {
      if ((options as { all?: boolean }).all) (callback as unknown as (e: null, a: Array<{ address: string; family: number }>) => void)(null, [pinned]);
      else callback(null, pinned.address, pinned.family);
    };
    const transport = url.protocol === 'https:' ? https : http;
    const { headersTimeoutMs, idleTimeoutMs } = this.options;
    return new Promise<UpstreamReply>((resolve, reject) => {
      let settled = false;
      const requestHeaders = body ? { ...headers, 'content-length': String(body.length) } : headers;
      const outgoing = transport.request(url, { method, headers: requestHeaders, lookup, agent: this.agents[url.protocol as 'http:' | 'https:'], signal });
      const timer = setTimeout(() => {
        outgoing.destroy(new AppError('deadline_exceeded', `the upstream ${url.host} did not answer within ${headersTimeoutMs} ms`));
      }, headersTimeoutMs);
      outgoing.once('error', (err) => {
        clearTimeout(timer);
        if (settled) return;
        settled = true;
        reject(upstreamError(err, url));
      });
      outgoing.once('response', (incoming) => {
        clearTimeout(timer);
        settled = true;
        outgoing.setTimeout(idleTimeoutMs, () => {
          incoming.destroy(new AppError('deadline_exceeded', `the upstream ${url.host} sent nothing for ${idleTimeoutMs} ms`));
        });
        const replyHeaders: Record<string, string | undefined> = {};
        for (const [name, value] of Object.entries(incoming.headers)) replyHeaders[name] = Array.isArray(value) ? value.join(', ') : value;
        resolve({ status: incoming.statusCode ?? 502, headers: replyHeaders, body: method === 'HEAD' ? emptyBody(incoming) : incoming });
      });
      outgoing.end(body);
    });
  }
}

/** An http(s) URL, or `forbidden` naming what is wrong with it. */
export function parseUpstreamUrl(text: string, base?: URL): URL {
  let url: URL;
  try {
    url = new URL(text, base);
  } catch {
    throw new AppError('bad_gateway', `the upstream URL "${text.slice(0, 200)}" is not a valid URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new AppError('forbidden', `the media proxy only fetches http and https URLs, not ${url.protocol.replace(/:$/, '')}`);
  }
  return url;
}

function upstreamError(err: unknown, url: URL): AppError {
  if (err instanceof AppError) return err;
  const code = (err as NodeJS.ErrnoException).code;
  if ((err as Error).name === 'AbortError') return new AppError('bad_gateway', 'the read was cancelled', [], { cause: err });
  return new AppError('bad_gateway', `the upstream ${url.host} failed: ${code ?? (err as Error).message}`, [], { cause: err });
}

function lowerCased(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
}

/** A HEAD reply has no body; the socket is released once the (empty) message is consumed. */
function emptyBody(incoming: http.IncomingMessage): Readable {
  incoming.resume();
  return Readable.from([]);
}
