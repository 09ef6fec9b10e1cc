/**
 * The transcoder role's service (`svc serve --role transcoder`, inside `all`): it answers
 * probes for the pool (queue group), and reads of the transcodes it runs on its own subject
 * (transcode-wire.ts), and keeps its key in the transcoders bucket alive while it serves.
 *
 * A job is one rung of one source: keyed by what is read (the upstream's identity and
 * credentials, media/read-key.ts) and how (the treatment of each stream, the rung, and the image
 * subtitle stream burned in: burn.ts), not by room or item, so every room playing one source
 * (and every viewer choosing one picture subtitle of it) shares one encoder and one set of
 * segments. A burned rung is a job like any other: admission counts it the same.
 * Its encoder (rung-encoder.ts) reads the media from this process's loopback source server.
 *
 * Admission: at most `maxEncodes` encoders run at once. A read that needs an encoder started
 * (a new job, or one whose encoder stopped) past that is answered `resource_exhausted` with a
 * sentence, and the reader tries the next transcoder or tells the viewer; reads of segments
 * already made, or of a running encoder, are always served. A job nobody read for IDLE_JOB_MS
 * is closed and its place freed (its encoder stopped itself well before).
 */
import { headers as natsHeaders, type Msg, type NatsConnection, type Subscription } from 'nats';
import { createHash } from 'node:crypto';
import { open as openFile } from 'node:fs/promises';
import { decode } from '../../actors/client.js';
import type { MediaItem } from '../../contracts/room/model.js';
import type { MediaReach } from '../../contracts/room/reach.js';
import { AppError, isAppError } from '../../errors/index.js';
import type { Logger } from '../../observability/index.js';
import type { MediaProvider } from '../provider.js';
import type { ProviderRegistry } from '../providers/registry.js';
import type { Resolutions } from '../proxy/resolutions.js';
import { upstreamReadKey } from '../read-key.js';
import type { MediaTools } from '../tools/media-tools.js';
import { burnedReach, requireBurnable } from './burn.js';
import { probeMedia } from './probe.js';
import { reachOf } from './reach.js';
import type { OpenSource, SourceServer } from './source-server.js';
import type { RungEncoder } from './rung-encoder.js';
import { errorHeaders } from './transcode-client.js';
import { probeSubject, READ_PIECE_BYTES, readSubject, SIZE_HEADER, transcodersQueue, type ProbeRequest, type ReadRequest } from './transcode-wire.js';
import { TranscoderHeartbeat } from './transcoder-directory.js';

/** A job nobody read for this long is closed. */
const IDLE_JOB_MS = 120_000;
/** A job nobody read for this long gives its encoder up when a new one needs the place (the room moved on). */
const UNREAD_PREEMPT_MS = 10_000;
/** A job opened or restarted by a read counts against the limit until its encoder first delivers, at most this long. */
const ADMISSION_GRACE_MS = 10_000;

/** One rung's encoder and its segments on disk, as the role makes them (server/transcoder-role.ts). */
export interface OpenedRung {
  encoder: Pick<RungEncoder, 'init' | 'segment' | 'running' | 'close'>;
  /** Whether segment n is on disk now (a read of it starts nothing). */
  has(n: number): boolean;
}

/**
 * What the role gives the service to open one rung of a source it serves at `source.url`;
 * `burn`: the image subtitle stream to burn in (then `reach` is the burned reach, its video converted).
 */
export type OpenRung = (job: { key: string; source: OpenSource; reach: MediaReach; rung: number; burn?: number }) => Promise<OpenedRung>;

export interface TranscoderObserver {
  refused(): void;
  bytes(count: number): void;
}

export interface TranscoderOptions {
  nc: NatsConnection;
  prefix: string;
  /** Copies of the transcoders bucket (`nats.replicas`). */
  bucketReplicas: number;
  /** This transcoder's id (its replica id, subject-safe). */
  id: string;
  providers: Pick<ProviderRegistry, 'get'>;
  resolutions: Resolutions;
  tools: MediaTools;
  sources: SourceServer;
  openRung: OpenRung;
  maxEncodes: number;
  /** The tallest rung offered (runtime setting `transcode.maxHeight`). */
  maxHeight: () => number;
  /** Throws when the operator turned server-side reads of media off (`proxy.movieProxy`). */
  requireReads: (item: MediaItem) => void;
  /** The H.264 encoder in use, for the directory and the log. */
  encoder: string;
  logger: Logger;
  observer?: TranscoderObserver;
  /** A job was closed: its segments may go (the role drops its shelf). */
  closed?: (key: string) => void;
}

interface Job {
  key: string;
  /** What it reads (media/read-key.ts): every rung of one source has the same. */
  readKey: string;
  rung: OpenedRung;
  source: OpenSource;
  lastReadAt: number;
  /** When each room last read it: a room asking for another source has moved on from this one. */
  readers: Map<string, number>;
  admittedAt: number;
}

export class Transcoder {
  private readonly jobs = new Map<string, Job>();
  /** Jobs being opened (their rung's folder made, the source sniffed): a second read waits for the first. */
  private readonly opening = new Map<string, Promise<Job>>();
  private readonly subscriptions: Subscription[] = [];
  private heartbeat: TranscoderHeartbeat | undefined;
  private reaper: NodeJS.Timeout | undefined;
  private waiting = 0;

  private constructor(private readonly options: TranscoderOptions) {}

  static async start(options: TranscoderOptions): Promise<Transcoder> {
    const transcoder = new Transcoder(options);
    const { nc, prefix, id, logger } = options;
    transcoder.subscriptions.push(
      nc.subscribe(probeSubject(prefix), { queue: transcodersQueue(prefix), callback: (err, msg) => !err && void transcoder.onProbe(msg) }),
      nc.subscribe(readSubject(prefix, id), { callback: (err, msg) => !err && void transcoder.onRead(msg) }),
    );
    await nc.flush();
    transcoder.heartbeat = await TranscoderHeartbeat.start(nc, prefix, options.bucketReplicas, () => ({ id, running: transcoder.running, limit: options.maxEncodes, encoder: options.encoder }));
    transcoder.reaper = setInterval(() => transcoder.reap(), 10_000);
    transcoder.reaper.unref();
    logger.info({ transcoder: id, maxEncodes: options.maxEncodes, encoder: options.encoder }, 'transcoder serving');
    return transcoder;
  }

  /** Encoders running now (and those admitted moments ago that have yet to start). */
  get running(): number {
    const now = Date.now();
    const admitted = [...this.jobs.values()].filter((job) => job.rung.encoder.running || now - job.admittedAt < ADMISSION_GRACE_MS).length;
    return admitted + this.opening.size;
  }

  /** Reads waiting for an encoder to reach their segment. */
  get queued(): number {
    return this.waiting;
  }

  async stop(): Promise<void> {
    clearInterval(this.reaper);
    for (const subscription of this.subscriptions) subscription.unsubscribe();
    await this.heartbeat?.stop();
    for (const job of this.jobs.values()) this.closeJob(job);
  }

  private async onProbe(msg: Msg): Promise<void> {
    try {
      const request = decode(msg.data) as ProbeRequest;
      const reach = await this.probe(request.roomId, request.item);
      msg.respond(Buffer.from(JSON.stringify(reach)));
    } catch (err) {
      msg.respond(new Uint8Array(0), { headers: errorHeaders(this.asAppError(err, 'probing media')) });
    }
  }

  private async probe(roomId: string, item: MediaItem): Promise<MediaReach | null> {
    const provider = this.options.providers.get(item.provider);
    if (!provider || provider.play || provider.live || item.live) return null;
    this.options.requireReads(item);
    const upstream = await this.options.resolutions.get(roomId, item, provider);
    if (upstream.type !== 'file') return null;
    const source = this.options.sources.open(roomId, item, provider, 'probe');
    try {
      const profile = await probeMedia(this.options.tools, { url: source.url, identity: upstreamReadKey(upstream) });
      return reachOf(profile, { maxHeight: this.options.maxHeight() });
    } finally {
      source.close();
    }
  }

  private async onRead(msg: Msg): Promise<void> {
    const aborter = new AbortController();
    try {
      const request = decode(msg.data) as ReadRequest;
      const piece = await this.read(request, aborter.signal);
      const headers = natsHeaders();
      headers.set(SIZE_HEADER, String(piece.size));
      msg.respond(piece.bytes, { headers });
      this.options.observer?.bytes(piece.bytes.length);
    } catch (err) {
      msg.respond(new Uint8Array(0), { headers: errorHeaders(this.asAppError(err, 'reading a transcoded segment')) });
    }
  }

  private async read(request: ReadRequest, signal: AbortSignal): Promise<{ size: number; bytes: Uint8Array }> {
    const { roomId, item, rung, file, burn, current } = request;
    const itemReach = item.reach;
    if (!itemReach || itemReach.how === 'direct') throw new AppError('failed_precondition', 'this item plays as it is: it has no transcode');
    if (burn !== undefined && !Number.isInteger(burn)) throw AppError.invalid([{ key: 'burn', message: 'is not a stream index' }]);
    if (burn !== undefined) requireBurnable(itemReach, burn);
    // A burned variant converts the video, on the item's ladder or at its capped source height.
    const reach = burn === undefined ? itemReach : burnedReach(itemReach, this.options.maxHeight());
    if (!(rung === 0 ? reach.videoTreatment !== 'convert' : reach.heights.includes(rung))) {
      const rungs = reach.videoTreatment === 'convert' ? reach.heights.join(', ') : '0';
      throw AppError.invalid([{ key: 'rung', message: `${rung} is not one of the rungs of this ${burn === undefined ? 'transcode' : `burned variant (s${burn})`}: ${rungs}` }]);
    }
    const provider = this.options.providers.get(item.provider);
    if (!provider) throw new AppError('failed_precondition', `the provider ${item.provider} is not on this server`);
    this.options.requireReads(item);
    if (file === 'admit') {
      await this.admit(roomId, item, provider, current === true);
      return { size: 0, bytes: new Uint8Array(0) };
    }
    const job = await this.job(roomId, item, provider, reach, { rung, burn }, file);
    const waits = file === 'init' || !job.rung.has(file);
    this.waiting += waits ? 1 : 0;
    let path: string;
    try {
      path = file === 'init' ? await job.rung.encoder.init(signal) : await job.rung.encoder.segment(file, signal);
      // The encoder has run: from now on its own state says whether it holds a place.
      job.admittedAt = 0;
    } finally {
      this.waiting -= waits ? 1 : 0;
      markRead(job, roomId);
    }
    return readPiece(path, request.offset);
  }

  /**
   * Whether this transcoder would take the item now (the play endpoint asks before handing out
   * the transcode): it already encodes its source, or has a free place. Nothing is reserved: the
   * player's first read, on the rung it chooses, is admitted like any other.
   */
  private async admit(roomId: string, item: MediaItem, provider: MediaProvider, current: boolean): Promise<void> {
    const readKey = upstreamReadKey(await this.options.resolutions.get(roomId, item, provider));
    if ([...this.jobs.values()].some((job) => job.readKey === readKey)) return;
    if (this.placeFree(current ? { roomId, readKey } : undefined)) return;
    this.options.observer?.refused();
    throw this.busy();
  }

  /**
   * Whether one more encoder may start: a place is free, or one is made by closing the jobs
   * whose encoders run for nobody (no read for UNREAD_PREEMPT_MS: the room moved on, the
   * viewers left), so a room going through its playlist is not refused by its own past items.
   * `movedOn`: a room admitting its current item has moved on from its other sources at once:
   * the jobs only it read lately are closed without waiting.
   */
  private placeFree(movedOn?: { roomId: string; readKey: string }): boolean {
    if (this.running < this.options.maxEncodes) return true;
    const now = Date.now();
    for (const job of [...this.jobs.values()]) {
      if (!job.rung.encoder.running && now - job.admittedAt > ADMISSION_GRACE_MS) continue;
      const unread = now - job.lastReadAt > UNREAD_PREEMPT_MS && now - job.admittedAt > ADMISSION_GRACE_MS;
      const leftBehind = movedOn !== undefined && job.readKey !== movedOn.readKey && [...job.readers].every(([reader, at]) => reader === movedOn.roomId || now - at > UNREAD_PREEMPT_MS);
      if (unread || leftBehind) this.closeJob(job);
    }
    return this.running < this.options.maxEncodes;
  }

  private busy(): AppError {
    return new AppError('resource_exhausted', `all ${this.options.maxEncodes} encoders of the transcoder ${this.options.id} are in use; try again in 10 s`, [], { retryAfterSeconds: 10 });
  }

  /** The job of this source and rung (and burned stream): found, or admitted and opened. */
  private async job(roomId: string, item: MediaItem, provider: MediaProvider, reach: MediaReach, which: { rung: number; burn: number | undefined }, file: ReadRequest['file']): Promise<Job> {
    const upstream = await this.options.resolutions.get(roomId, item, provider);
    const { rung, burn } = which;
    // The burned stream only when there is one: the plain rungs keep the keys they always had.
    const burned = burn === undefined ? '' : `\0burn:${burn}`;
    const readKey = upstreamReadKey(upstream);
    const key = createHash('sha256')
      .update(`${readKey}\0${reach.videoStream}:${reach.videoTreatment}\0${reach.audioStream}:${reach.audioTreatment}\0${rung}${burned}`)
      .digest('hex')
      .slice(0, 32);
    const opening = this.opening.get(key);
    if (opening) return opening;
    const found = this.jobs.get(key);
    const needsEncoder = !found || (!found.rung.encoder.running && (typeof file !== 'number' || !found.rung.has(file)));
    const recentlyAdmitted = found !== undefined && Date.now() - found.admittedAt < ADMISSION_GRACE_MS;
    if (needsEncoder && !recentlyAdmitted && !this.placeFree()) {
      this.options.observer?.refused();
      throw this.busy();
    }
    if (found) {
      if (needsEncoder) found.admittedAt = Date.now();
      markRead(found, roomId);
      return found;
    }
    const opened = this.open(key, readKey, roomId, item, provider, reach, which);
    this.opening.set(key, opened);
    try {
      return await opened;
    } finally {
      this.opening.delete(key);
    }
  }

  private async open(key: string, readKey: string, roomId: string, item: MediaItem, provider: MediaProvider, reach: MediaReach, which: { rung: number; burn: number | undefined }): Promise<Job> {
    const { rung, burn } = which;
    const source = this.options.sources.open(roomId, item, provider, `${item.id}-${rung}${burn === undefined ? '' : `-s${burn}`}`);
    try {
      const opened = await this.options.openRung({ key, source, reach, rung, ...(burn === undefined ? {} : { burn }) });
      const job: Job = { key, readKey, rung: opened, source, lastReadAt: Date.now(), readers: new Map([[roomId, Date.now()]]), admittedAt: Date.now() };
      this.jobs.set(key, job);
      this.options.logger.info({ mediaId: item.id, roomId, rung, burn, how: reach.how }, 'transcode job opened');
      return job;
    } catch (err) {
      source.close();
      throw err;
    }
  }

  private reap(): void {
    const now = Date.now();
    for (const job of this.jobs.values()) {
      if (now - job.lastReadAt > IDLE_JOB_MS && !job.rung.encoder.running) this.closeJob(job);
    }
  }

  private closeJob(job: Job): void {
    this.jobs.delete(job.key);
    void job.rung.encoder.close().finally(() => job.source.close());
    this.options.closed?.(job.key);
  }

  private asAppError(err: unknown, doing: string): AppError {
    if (isAppError(err)) return err;
    this.options.logger.error({ err }, `transcoder failed ${doing}`);
    return new AppError('internal', `the transcoder failed ${doing}`);
  }
}

function markRead(job: Job, roomId: string): void {
  job.lastReadAt = Date.now();
  job.readers.set(roomId, job.lastReadAt);
}

async function readPiece(path: string, offset: number): Promise<{ size: number; bytes: Uint8Array }> {
  if (!Number.isSafeInteger(offset) || offset < 0) throw AppError.invalid([{ key: 'offset', message: 'must be a whole number of bytes, at least 0' }]);
  const file = await openFile(path, 'r');
  try {
    const { size } = await file.stat();
    if (offset > size) throw AppError.invalid([{ key: 'offset', message: `is past the end of the file (${size} bytes)` }]);
    const length = Math.min(READ_PIECE_BYTES, size - offset);
    const bytes = Buffer.alloc(length);
    await file.read(bytes, 0, length, offset);
    return { size, bytes };
  } finally {
    await file.close();
  }
}
