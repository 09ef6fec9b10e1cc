/**
 * The room's `SeekProbe` (actors/room/seek-check.ts): can an item's source seek? Its provider
 * says by nature (HLS: yes) or its upstream is asked for one byte, `Range: bytes=0-0`, through
 * the media proxy's `UpstreamClient`, so the address policy (SSRF), the redirect checks and
 * the timeouts apply to the probe exactly as to the proxy. Seekable iff the answer is 206 with
 * a Content-Range, or announces `Accept-Ranges: bytes`; another 2xx means the server sends
 * every read from the start. Anything else (refused address, 4xx/5xx, timeout) is `unknown`:
 * the add is never blocked on it. The body is never read: a 200 is cut off at its headers.
 */
import type { MediaItem, Seekable } from '../contracts/room/model.js';
import type { ProbedSeekable, SeekProbe } from '../actors/index.js';
import type { MediaReach } from '../contracts/room/reach.js';
import type { Logger } from '../observability/index.js';
import { messageOf } from '../actors/client.js';
import type { ProviderRegistry } from './providers/registry.js';
import type { UpstreamClient } from './proxy/upstream-client.js';

/** The longest a probe may take, resolution included. */
export const SEEK_PROBE_TIMEOUT_MS = 5000;

export interface SeekProbeOptions {
  providers: Pick<ProviderRegistry, 'get'>;
  http: Pick<UpstreamClient, 'request'>;
  logger: Logger;
  timeoutMs?: number;
  /** How the item reaches browsers, asked of the transcoder pool (media/transcode/); may reject. */
  reach?: (item: MediaItem, signal: AbortSignal, roomId: string) => Promise<MediaReach | null>;
}

/** What an upstream's answer to `Range: bytes=0-0` says about seeking. */
export function seekableFromReply(status: number, headers: Record<string, string | undefined>): ProbedSeekable {
  if (status === 206 && headers['content-range'] !== undefined) return 'yes';
  if (/(^|,)\s*bytes\s*($|,)/i.test(headers['accept-ranges'] ?? '')) return 'yes';
  if (status >= 200 && status < 300) return 'no';
  return 'unknown';
}

export class UpstreamSeekProbe implements SeekProbe {
  private readonly timeoutMs: number;

  constructor(private readonly options: SeekProbeOptions) {
    this.timeoutMs = options.timeoutMs ?? SEEK_PROBE_TIMEOUT_MS;
  }

  initial(item: Pick<MediaItem, 'provider' | 'url' | 'live'>): Seekable {
    const provider = this.options.providers.get(item.provider);
    if (item.live || provider?.live || provider?.seeking === 'never') return 'no';
    if (provider?.seeking === 'always') return 'yes';
    return provider ? 'checking' : 'unknown';
  }

  async reach(item: MediaItem, signal: AbortSignal, roomId: string): Promise<MediaReach | null> {
    if (!this.options.reach) return null;
    try {
      return await this.options.reach(item, signal, roomId);
    } catch (err) {
      this.options.logger.info({ mediaId: item.id, reason: messageOf(err) }, 'media probe failed; the item plays as it is');
      return null;
    }
  }

  async probe(item: MediaItem, signal: AbortSignal, roomId: string): Promise<ProbedSeekable> {
    const provider = this.options.providers.get(item.provider);
    if (!provider) return 'unknown';
    // A timer of our own, not AbortSignal.timeout(): inside AbortSignal.any() that signal is
    // held weakly and can be collected before it fires, leaving the probe to the client's 10 s.
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(), this.timeoutMs);
    const bounded = AbortSignal.any([signal, timeout.signal]);
    try {
      const upstream = await provider.resolve(item, { refresh: false, signal: bounded, roomId });
      // A direct item naming a playlist (.m3u8) plays as HLS: seekable by segments.
      if (upstream.type === 'hls' || upstream.type === 'dash') return 'yes';
      const reply = await this.options.http.request({
        url: upstream.url,
        headers: upstream.headers,
        readHeaders: { range: 'bytes=0-0' },
        ...(upstream.scope !== undefined ? { headersScope: upstream.scope } : {}),
        signal: bounded,
      });
      reply.body.destroy();
      const seekable = seekableFromReply(reply.status, reply.headers);
      if (seekable === 'unknown') this.options.logger.info({ mediaId: item.id, status: reply.status }, 'seek probe: the upstream answered with an error; seeking stays allowed');
      return seekable;
    } catch (err) {
      const reason = bounded.aborted && !signal.aborted ? `no answer within ${this.timeoutMs} ms` : messageOf(err);
      this.options.logger.info({ mediaId: item.id, reason }, 'seek probe failed; seeking stays allowed');
      return 'unknown';
    } finally {
      clearTimeout(timer);
    }
  }
}
