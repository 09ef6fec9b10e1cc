/**
 * The transcoder pool as gateways and actor hosts use it (transcode-wire.ts): probe an item,
 * ask whether it can be transcoded now, and read a rung's files piece by piece.
 *
 * Reads go to the transcoder rendezvous hashing ranks first for the item (so every gateway's
 * viewers of one item, in every room, meet on one encoder). When it is gone (no responders: its
 * connection closed) the next one takes the item over from the read that found it gone: the
 * request names everything, so the new one starts its encoder where that read lands and viewers
 * resume. When it is full (`resource_exhausted`) the next one is asked; when all are, the reader
 * gets the refusal.
 */
import { Readable } from 'node:stream';
import { ErrorCode, headers as natsHeaders, type Msg, type NatsConnection } from 'nats';
import type { MediaItem } from '../../contracts/room/model.js';
import type { MediaReach } from '../../contracts/room/reach.js';
import { isErrorCode } from '../../contracts/errors.js';
import { AppError } from '../../errors/index.js';
import { decode, encode } from '../../actors/client.js';
import { ERROR_HEADER, probeSubject, readSubject, SIZE_HEADER, type ReadRequest, type TranscodeFile, type WireError } from './transcode-wire.js';
import { TranscoderDirectory } from './transcoder-directory.js';

/** Longest a probe may take (ffprobe reads the first bytes and the index through the proxy). */
const PROBE_TIMEOUT_MS = 30_000;
/** Longest one read may wait: a segment the encoder has yet to reach, after a restart at a seek. */
const READ_TIMEOUT_MS = 30_000;

/** Which rung: its height (0: copied video), and in a burned variant the image subtitle stream burned in. */
export interface RungOf {
  rung: number;
  burn?: number | undefined;
}

export interface TranscodeRead {
  size: number;
  body: Readable;
}

export class TranscodeClient {
  constructor(
    private readonly nc: NatsConnection,
    private readonly prefix: string,
    readonly directory: TranscoderDirectory,
  ) {}

  close(): Promise<void> {
    this.directory.close();
    return Promise.resolve();
  }

  /** How `item` reaches browsers; null when no transcoder runs. */
  async probe(roomId: string, item: MediaItem, signal: AbortSignal): Promise<MediaReach | null> {
    if (this.directory.size === 0) return null;
    const reply = await this.nc.request(probeSubject(this.prefix), encode({ roomId, item }), { timeout: PROBE_TIMEOUT_MS, noMux: true });
    if (signal.aborted) return null;
    const error = errorOf(reply);
    if (error) throw error;
    return decode(reply.data) as MediaReach | null;
  }

  /**
   * Throws `resource_exhausted` (or `unavailable` with no transcoder) when no transcoder can take
   * the item now; `current`: the room plays it now (see ReadRequest).
   */
  async admit(roomId: string, item: MediaItem, rung: number, current = false): Promise<void> {
    await this.piece({ roomId, item, rung, file: 'admit', offset: 0, ...(current ? { current } : {}) });
  }

  /** A rung's init segment or segment n, as a stream of its pieces; `burn`: of the variant with that image subtitle stream burned in. */
  async read(roomId: string, item: MediaItem, rung: RungOf, file: Exclude<TranscodeFile, 'admit'>, signal: AbortSignal): Promise<TranscodeRead> {
    const request: ReadRequest = { roomId, item, rung: rung.rung, ...(rung.burn === undefined ? {} : { burn: rung.burn }), file, offset: 0 };
    const first = await this.piece(request);
    const size = first.size;
    let offset = first.bytes.length;
    const pieces = async function* (client: TranscodeClient): AsyncGenerator<Buffer> {
      yield first.bytes;
      while (offset < size) {
        if (signal.aborted) return;
        const next = await client.piece({ ...request, offset });
        if (next.bytes.length === 0) throw new AppError('bad_gateway', 'the transcoder sent an empty piece of a segment');
        offset += next.bytes.length;
        yield next.bytes;
      }
    };
    return { size, body: Readable.from(pieces(this), { objectMode: false }) };
  }

  /** One request of a read, to the first transcoder of the item's ranking that answers and admits it. */
  private async piece(request: ReadRequest): Promise<{ size: number; bytes: Buffer }> {
    const ranked = this.directory.ranked(routeKeyOf(request.item));
    if (ranked.length === 0) throw new AppError('unavailable', 'no transcoder is running: start one (svc serve --role transcoder, or all roles)');
    let refusal: AppError | undefined;
    for (const transcoder of ranked) {
      let reply: Msg;
      try {
        reply = await this.nc.request(readSubject(this.prefix, transcoder.id), encode(request), { timeout: READ_TIMEOUT_MS, noMux: true });
      } catch (err) {
        // No responders: its connection is closed (it died or stopped); the next one takes the item.
        if ((err as { code?: string }).code === ErrorCode.NoResponders) {
          this.directory.markGone(transcoder.id);
          continue;
        }
        throw new AppError('unavailable', `the transcoder ${transcoder.id} did not answer within ${READ_TIMEOUT_MS / 1000} s`, [], { cause: err });
      }
      const error = errorOf(reply);
      if (error?.code === 'resource_exhausted') {
        refusal = error;
        continue;
      }
      if (error) throw error;
      return { size: Number(reply.headers?.get(SIZE_HEADER) ?? reply.data.length), bytes: Buffer.from(reply.data) };
    }
    throw refusal ?? new AppError('unavailable', 'no transcoder answered: they stopped meanwhile');
  }
}

/** The pool as this process sees it, following the transcoders bucket until `close`. */
export async function openTranscodeClient(nc: NatsConnection, prefix: string, replicas: number): Promise<TranscodeClient> {
  return new TranscodeClient(nc, prefix, await TranscoderDirectory.open(nc, prefix, replicas));
}

/**
 * What the ranking is keyed by: the item's source as the room names it. Two rooms adding one
 * link meet on one transcoder, which shares one encode between them when the link reads the
 * same bytes with the same credentials (its job key, transcoder.ts).
 */
export function routeKeyOf(item: Pick<MediaItem, 'provider' | 'url'>): string {
  return `${item.provider}\0${item.url}`;
}

function errorOf(reply: Msg): AppError | undefined {
  const raw = reply.headers?.get(ERROR_HEADER);
  if (!raw) return undefined;
  const wire = decode(Buffer.from(raw)) as Partial<WireError> | undefined;
  if (!wire || !isErrorCode(wire.code) || typeof wire.message !== 'string') return new AppError('bad_gateway', 'the transcoder answered with an error this build cannot read');
  return new AppError(wire.code, wire.message, [], wire.retryAfterSeconds !== undefined ? { retryAfterSeconds: wire.retryAfterSeconds } : {});
}

/** Reply headers of an error (the transcoder's side). */
export function errorHeaders(error: AppError): ReturnType<typeof natsHeaders> {
  const headers = natsHeaders();
  const wire: WireError = { code: error.code, message: error.message, ...(error.retryAfterSeconds !== undefined ? { retryAfterSeconds: error.retryAfterSeconds } : {}) };
  headers.set(ERROR_HEADER, encode(wire));
  return headers;
}
