/**
 * The seam between the media proxy and the slice cache. The proxy knows how to reach an
 * upstream safely (SSRF rules, timeouts, provider headers, re-resolving expired links); the
 * cache knows slices. The proxy hands the cache a `SliceResource` whose `fetch` asks the
 * upstream for one byte range, and gets back either an answer to send or, when the upstream
 * turned out not to honour Range, the upstream's own reply to pass through untouched.
 */
import type { Readable } from 'node:stream';
import type { SliceLease } from './slice-buffers.js';

/** An upstream's answer with its body not yet consumed. Header names are lower-case. */
export interface UpstreamReply {
  status: number;
  headers: Record<string, string | undefined>;
  /** Destroying it aborts the upstream request. */
  body: Readable;
}

export interface ByteRange {
  /** Inclusive. */
  start: number;
  /** Inclusive. */
  end: number;
}

export interface Validators {
  etag?: string;
  lastModified?: string;
}

export interface SliceResource {
  /** Stable identity of the upstream resource (`Upstream.identity`), the cache key. */
  identity: string;
  /**
   * Asks the upstream for `range`. With `validators`, a conditional request (If-None-Match /
   * If-Modified-Since) that may answer 304.
   */
  fetch(range: ByteRange, validators: Validators | undefined, signal: AbortSignal): Promise<UpstreamReply>;
}

export interface ClientRead {
  method: 'GET' | 'HEAD';
  /** The client's Range header, as sent. */
  range: string | undefined;
}

/**
 * A body of several slices, produced one slice at a time as the writer asks for the next. Each
 * piece is lent (slice-buffers.ts): the writer releases it once the piece has been written out
 * (the socket write's callback), and stops asking when the client has gone.
 */
export interface SlicePieces {
  pieces: AsyncGenerator<SliceLease>;
}

export function isSlicePieces(body: unknown): body is SlicePieces {
  return typeof body === 'object' && body !== null && 'pieces' in body;
}

export type CacheAnswer =
  /** A range within one slice comes as a Buffer, a longer one as pieces read slice by slice. */
  | {
      kind: 'served';
      status: number;
      headers: Record<string, string>;
      body: Buffer | SlicePieces | null;
      /**
       * Call once the response has closed (its bytes written, or the client gone): a Buffer
       * body may be a pooled buffer the cache reuses (slice-buffers.ts). Never calling it is
       * safe, only wasteful.
       */
      release?: () => void;
    }
  /** The upstream answered 200 to a ranged request: send its reply as it is, nothing cached. */
  | { kind: 'passthrough'; reply: UpstreamReply };

export type { SliceCacheStats } from '../../contracts/management.js';
import type { SliceCacheStats } from '../../contracts/management.js';

export interface SliceCacheApi {
  serve(read: ClientRead, resource: SliceResource, signal: AbortSignal): Promise<CacheAnswer>;
  stats(): SliceCacheStats;
}
