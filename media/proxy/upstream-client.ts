/**
 * The only way the service reaches a media upstream (the proxy's reads, providers' API calls).
 * Every hop is checked before it is made: http or https only, the host resolved here and each
 * address judged by the `AddressPolicy`, the connection pinned to the address that was checked
 * (so a second DNS answer cannot point it elsewhere: DNS rebinding), redirects followed by hand
 * and re-checked, at most `maxRedirects` of them. Waits are bounded (connect plus response
 * headers, then body idleness), and failures become `bad_gateway` (502) or
 * `deadline_exceeded` (504) saying what went wrong.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { Readable } from 'node:stream';
import { AppError } from '../../errors/app-error.js';
import type { UpstreamReply } from '../cache/types.js';
import type { AddressPolicy } from './address-policy.js';

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
  /** Sent as they are (the provider's headers, Range, validators); nothing of the client's. */
  headers?: Record<string, string>;
  body?: Buffer;
  signal: AbortSignal;
}

/** The reply with the URL that finally answered (after redirects). */
export interface FinalReply extends UpstreamReply {
  url: string;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** Credentials meant for the item's host, not for whatever host it redirects to. */
const CROSS_ORIGIN_DROPPED = ['authorization', 'cookie'];

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
    let headers: Record<string, string> = { 'accept-encoding': 'identity', 'user-agent': 'svc-media-proxy', ...lowerCased(request.headers ?? {}) };
    for (let hop = 0; ; hop += 1) {
      const reply = await this.once(url, method, headers, body, request.signal);
      const location = reply.headers.location;
      if (!REDIRECTS.has(reply.status) || location === undefined) return { ...reply, url: url.href };
      reply.body.destroy();
      if (hop >= this.options.maxRedirects) {
        throw new AppError('bad_gateway', `the upstream redirected more than ${this.options.maxRedirects} times (last to ${location})`);
      }
      const next = parseUpstreamUrl(location, url);
      if (next.origin !== url.origin) headers = Object.fromEntries(Object.entries(headers).filter(([name]) => !CROSS_ORIGIN_DROPPED.includes(name)));
      if (reply.status === 303 || ((reply.status === 301 || reply.status === 302) && method === 'POST')) {
        method = 'GET';
        body = undefined;
        delete headers['content-type'];
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
