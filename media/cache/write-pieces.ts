/**
 * Writes a body of slice pieces (`SlicePieces`) to a response: one piece at a time, each
 * released once the socket has taken it (the write's callback), waiting for 'drain' when the
 * client reads slower than the cache produces. A client that goes away stops the pieces (the
 * generator's cleanup runs); a failure before the first byte still reaches the caller as an
 * error it can answer, after it the caller can only cut the connection.
 */
import type { SlicePieces } from './types.js';

/** What of a response (node:http `ServerResponse`, or any Writable) is used. */
export interface PieceSink {
  readonly destroyed: boolean;
  write(chunk: Buffer, written: (err?: Error | null) => void): boolean;
  end(): unknown;
  once(event: 'drain' | 'close', listener: () => void): unknown;
  off(event: 'drain' | 'close', listener: () => void): unknown;
}

export async function writePieces(out: PieceSink, { pieces }: SlicePieces): Promise<void> {
  try {
    for await (const lease of pieces) {
      if (out.destroyed) {
        lease.release();
        return;
      }
      if (!out.write(lease.bytes, () => lease.release())) await drained(out);
    }
    out.end();
  } catch (err) {
    // The client left (the read was aborted with it): nobody to tell.
    if (out.destroyed) return;
    throw err;
  }
}

function drained(out: PieceSink): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      out.off('drain', done);
      out.off('close', done);
      resolve();
    };
    out.once('drain', done);
    out.once('close', done);
  });
}
