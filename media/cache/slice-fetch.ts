/**
 * Fetches one slice from the upstream into memory and checks it is whole: the upstream's
 * Content-Range must name exactly the slice asked for (clipped at the end of the resource) and
 * the body must have exactly that many bytes. Anything else fails with `bad_gateway`, so the
 * caller only ever writes verified bytes (to a temporary file, renamed into the cache).
 *
 * Why memory and not straight to the temporary file: one slice is at most 2 MiB, and with the
 * bytes in hand the waiting readers are answered from them instead of reading the file back.
 * Writing the body chunk by chunk and reading it back measured at less than half of nginx's
 * throughput on a miss (bench/media-proxy.ts); one write of the whole slice is a single call.
 * The memory is a lease from the caller (`take`, a pooled buffer): see slice-buffers.ts.
 */
import { finished } from 'node:stream';
import { AppError, isAppError } from '../../errors/index.js';
import type { SliceLease } from './slice-buffers.js';
import type { ByteRange, SliceResource, UpstreamReply, Validators } from './types.js';

export interface FetchedSlice {
  kind: 'slice';
  /** The verified bytes; the caller holds the lease and releases it. */
  lease: SliceLease;
  length: number;
  /** Size of the whole resource, from Content-Range. */
  total: number;
  validators: Validators;
  contentType: string | undefined;
}

export type SliceFetchOutcome =
  | FetchedSlice
  /** The upstream ignored Range and answered 200: its reply, body unread. */
  | { kind: 'not-ranged'; reply: UpstreamReply }
  /** 416: the slice starts past the end; the size when the upstream said it. */
  | { kind: 'unsatisfiable'; total: number | undefined }
  /** 304 to a conditional request: the stored version is current. */
  | { kind: 'not-modified' };

export async function fetchSlice(
  resource: SliceResource,
  range: ByteRange,
  validators: Validators | undefined,
  signal: AbortSignal,
  take: (length: number) => SliceLease,
): Promise<SliceFetchOutcome> {
  const asked = `bytes ${range.start}-${range.end}`;
  let reply: UpstreamReply;
  try {
    reply = await resource.fetch(range, validators, signal);
  } catch (err) {
    throw upstreamError(err, signal, `upstream request for ${asked} failed`);
  }
  const { status, headers, body } = reply;
  if (status === 200) return { kind: 'not-ranged', reply };
  if (status === 304 && validators) {
    body.resume();
    return { kind: 'not-modified' };
  }
  if (status === 416) {
    body.resume();
    const total = /^bytes \*\/(\d+)$/.exec(headers['content-range']?.trim() ?? '');
    return { kind: 'unsatisfiable', total: total ? Number(total[1]) : undefined };
  }
  if (status !== 206) {
    body.destroy();
    throw new AppError('bad_gateway', `upstream answered ${status} to a request for ${asked}`);
  }

  const contentRange = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(headers['content-range']?.trim() ?? '');
  const total = contentRange ? Number(contentRange[3]) : NaN;
  const expectedEnd = Math.min(range.end, total - 1);
  if (!contentRange || Number(contentRange[1]) !== range.start || Number(contentRange[2]) !== expectedEnd) {
    body.destroy();
    throw new AppError('bad_gateway', `upstream answered Content-Range "${headers['content-range'] ?? ''}" to a request for ${asked}`);
  }
  const length = expectedEnd - range.start + 1;
  const declared = headers['content-length'];
  if (declared !== undefined && Number(declared) !== length) {
    body.destroy();
    throw new AppError('bad_gateway', `upstream declared Content-Length ${declared} for ${length} bytes of ${asked}`);
  }

  const lease = take(length);
  const { bytes } = lease;
  let received = 0;
  const stop = (): void => {
    body.destroy();
  };
  signal.addEventListener('abort', stop, { once: true });
  try {
    // 'data' events rather than an async iterator: no promise for each of a slice's 30-odd chunks.
    await new Promise<void>((resolve, reject) => {
      body.on('data', (piece: Buffer) => {
        if (received + piece.length > length) {
          body.destroy(new AppError('bad_gateway', `upstream sent more than ${length} bytes for ${asked}`));
          return;
        }
        piece.copy(bytes, received);
        received += piece.length;
      });
      finished(body, (err) => (err ? reject(err) : resolve()));
    });
    if (signal.aborted) throw signal.reason;
    if (received !== length) throw new AppError('bad_gateway', `upstream sent ${received} of ${length} bytes for ${asked}`);
  } catch (err) {
    body.destroy();
    lease.release();
    throw upstreamError(err, signal, `upstream read of ${asked} failed after ${received} of ${length} bytes`);
  } finally {
    signal.removeEventListener('abort', stop);
  }
  return {
    kind: 'slice',
    lease,
    length,
    total,
    validators: {
      ...(headers.etag ? { etag: headers.etag } : {}),
      ...(headers['last-modified'] ? { lastModified: headers['last-modified'] } : {}),
    },
    contentType: headers['content-type'],
  };
}

/** Our own errors and an abort pass as they are; anything else is the upstream failing. */
function upstreamError(err: unknown, signal: AbortSignal, message: string): unknown {
  if (signal.aborted) return signal.reason;
  if (isAppError(err)) return err;
  return new AppError('bad_gateway', `${message}: ${err instanceof Error ? err.message : String(err)}`, [], { cause: err });
}
