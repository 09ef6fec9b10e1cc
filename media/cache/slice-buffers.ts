/**
 * Reusable slice-sized buffers for reading cached slices. Every fresh 2 MiB buffer is memory
 * outside V8's heap that V8 still counts, and enough of it triggers a full mark-compact of the
 * whole heap: reading hits into new buffers spent a third of the gateway's time in the garbage
 * collector and held hits to half of nginx's throughput (bench:media). Reused, they cost
 * nothing after the first.
 *
 * A buffer is lent as a `SliceLease` with a count of holders. Whoever gets a lease releases it
 * once, when nothing of theirs reads the bytes any more (for an answer: once the response has
 * closed, its bytes written to the socket or abandoned); a holder sharing it with another
 * `retain`s first, synchronously, so the count never reaches zero while someone still reads.
 * A lease never released is simply collected: the only harm is a buffer not reused.
 */

/** retain and release are closures over the lease (no `this`): they may be passed on alone. */
export interface SliceLease {
  /** The bytes lent (a view of the pooled buffer, `length` long). */
  readonly bytes: Buffer;
  /** One more holder. */
  readonly retain: () => void;
  /** A holder is done; the last one gives the buffer back. */
  readonly release: () => void;
}

export class SliceBuffers {
  private readonly free: ArrayBuffer[] = [];

  constructor(
    private readonly sliceBytes: number,
    /** Idle buffers kept for reuse; more than this are left to the garbage collector. */
    private readonly maxFree: number,
  ) {}

  /** A lease of `length` bytes (at most one slice), with one holder: the caller. */
  take(length: number): SliceLease {
    if (length > this.sliceBytes || length < 0) throw new RangeError(`a slice buffer holds at most ${this.sliceBytes} bytes, not ${length}`);
    const memory = this.free.pop() ?? Buffer.allocUnsafeSlow(this.sliceBytes).buffer;
    let holders = 1;
    return {
      bytes: Buffer.from(memory, 0, length),
      retain: () => {
        if (holders === 0) throw new Error('a released slice buffer cannot be retained');
        holders += 1;
      },
      release: () => {
        if (holders === 0) return;
        holders -= 1;
        if (holders === 0 && this.free.length < this.maxFree) this.free.push(memory);
      },
    };
  }
}

/** A view of part of a lease, held and released with it. */
export function leaseView(lease: SliceLease, start: number, end: number): SliceLease {
  return { bytes: lease.bytes.subarray(start, end), retain: lease.retain, release: lease.release };
}
