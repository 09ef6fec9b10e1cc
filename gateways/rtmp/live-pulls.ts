/**
 * Live streams this replica pulls from elsewhere (provider `pull`,
 * docs/2026-11-29-pulled-live-streams.md). A pull starts when a member's player first asks for
 * the item's `/media/live/...` and no replica holds it (the live registry, claimed with a
 * compare-and-set so two replicas asked at once do not both pull); it feeds a LiveStream, the
 * same FLV fan-out and HLS transmuxer a publish over RTMP feeds, goes on air in the room and is
 * re-announced like one (live-on-air.ts). It lasts while it is wanted: an HTTP-FLV viewer
 * attached, or a request for it within `idleMs`. A source that stops or fails takes the item off
 * air (viewers' connections end, as when a publisher leaves) and is tried again after 1, 2, 4 ...
 * 30 s while the item is still wanted. A refusal (an address the policy refuses, a redirect) is
 * not retried. At most `maxPulls` run on one replica: beyond it, `resource_exhausted`.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { AppError, isAppError } from '../../errors/index.js';
import { feedHls, pullInput, type AddressPolicy, type StreamTarget } from '../../media/index.js';
import type { UpstreamClient } from '../../media/index.js';
import type { Logger } from '../../observability/index.js';
import type { RoomClient } from '../rooms/room-client.js';
import { HlsTransmuxer } from './hls-transmuxer.js';
import { LiveOnAir } from './live-on-air.js';
import { REGISTRY_REFRESH_MS, type LiveRegistry } from './live-registry.js';
import { LiveStream } from './live-stream.js';
import { PullProcess, type Conversion, type PullEnd } from './pull-process.js';

const PULL_CALLER = 'live-pull';
/** How long a player's first request waits for the source's first frames. */
const START_WAIT_MS = 10_000;
const RETRY_FIRST_MS = 1_000;
const RETRY_MAX_MS = 30_000;
/** A stream that ran this long starts its retries from the first delay again. */
const STEADY_MS = 30_000;

export interface LivePullsOptions {
  /** `<data_dir>/live`: one HLS directory per running stream. */
  dir: string;
  registry: LiveRegistry;
  rooms: RoomClient;
  /** The media proxy's address policy (`media_proxy.allowed_networks`). */
  policy: AddressPolicy;
  /** The media proxy's checked upstream client: HLS sources are read through it. */
  client: UpstreamClient;
  replicaId: string;
  advertiseUrl: () => string;
  /** `live_pull.max_streams`. */
  maxPulls: number;
  /** `live_pull.idle_seconds` in ms: a pull nobody asked for this long stops. */
  idleMs: number;
  logger: Logger;
}

interface Waiter {
  resolve(stream: LiveStream | undefined): void;
  reject(error: Error): void;
}

interface Pull {
  target: StreamTarget;
  url: string;
  /** Set once the source sent its first frames; cleared when it stops. */
  stream?: LiveStream | undefined;
  process?: PullProcess | undefined;
  convert: Conversion;
  wantedUntil: number;
  attempts: number;
  waiters: Waiter[];
  /** Why the last attempt failed, for players that waited in vain. */
  failure?: AppError | undefined;
  retry?: NodeJS.Timeout | undefined;
  closed: boolean;
}

function idOf(target: StreamTarget): string {
  return `${target.roomId}/${target.mediaId}`;
}

export class LivePulls {
  private readonly pulls = new Map<string, Pull>();
  private readonly onAir: LiveOnAir;
  private readonly refreshTimer: NodeJS.Timeout;
  private stopped = false;

  constructor(private readonly options: LivePullsOptions) {
    this.onAir = new LiveOnAir({ ...options, caller: PULL_CALLER });
    this.refreshTimer = setInterval(() => void this.refresh(), REGISTRY_REFRESH_MS);
    this.refreshTimer.unref();
  }

  /** The pulled stream of `target` running on this replica. */
  local(target: StreamTarget): LiveStream | undefined {
    return this.pulls.get(idOf(target))?.stream;
  }

  /** Someone asked for the stream: it stays wanted for another `idleMs`. */
  touch(target: StreamTarget): void {
    const pull = this.pulls.get(idOf(target));
    if (pull) pull.wantedUntil = Date.now() + this.options.idleMs;
  }

  stats(): { streams: number; viewers: number } {
    let streams = 0;
    let viewers = 0;
    for (const pull of this.pulls.values()) {
      if (!pull.stream) continue;
      streams += 1;
      viewers += pull.stream.viewerCount;
    }
    return { streams, viewers };
  }

  /**
   * The stream of `target` pulled from `url`, starting the pull if no replica runs it; undefined
   * when another replica holds it (the caller forwards there). Waits up to START_WAIT_MS for the
   * source's first frames.
   */
  async want(target: StreamTarget, url: string): Promise<LiveStream | undefined> {
    if (this.stopped) throw new AppError('unavailable', 'this server is stopping');
    let pull = this.pulls.get(idOf(target));
    if (pull && pull.url !== url) {
      // The item was edited to another source: the old pull ends.
      await this.close(pull, 'the item names another source now');
      pull = undefined;
    }
    if (!pull) {
      if (this.pulls.size >= this.options.maxPulls) {
        throw new AppError(
          'resource_exhausted',
          `this server already pulls ${this.options.maxPulls} live streams, its limit (live_pull.max_streams); try again when one of them stops`,
        );
      }
      pull = { target, url, convert: { video: false, audio: false }, wantedUntil: Date.now() + this.options.idleMs, attempts: 0, waiters: [], closed: false };
      this.pulls.set(idOf(target), pull);
      void this.claimAndRun(pull);
    }
    pull.wantedUntil = Date.now() + this.options.idleMs;
    if (pull.stream) return pull.stream;
    const waiting = pull;
    return new Promise<LiveStream | undefined>((resolve, reject) => {
      const timer = setTimeout(() => {
        waiting.waiters = waiting.waiters.filter((one) => one !== waiter);
        reject(waiting.failure ?? new AppError('unavailable', `the live stream's source sent nothing within ${START_WAIT_MS / 1000} s; the server keeps trying, try again shortly`));
      }, START_WAIT_MS);
      const waiter: Waiter = {
        resolve: (stream) => {
          clearTimeout(timer);
          resolve(stream);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      };
      waiting.waiters.push(waiter);
    });
  }

  private async claimAndRun(pull: Pull): Promise<void> {
    const { registry, replicaId, logger } = this.options;
    try {
      const entry = { baseUrl: this.options.advertiseUrl(), replicaId, startedAt: Date.now() };
      const held = await registry.find(pull.target);
      if ((held && held.replicaId !== replicaId) || !(await registry.claim(pull.target, entry))) {
        const again = await registry.find(pull.target);
        if (again?.replicaId !== replicaId) {
          // Another replica pulls it: players are forwarded there.
          this.pulls.delete(idOf(pull.target));
          pull.closed = true;
          for (const waiter of pull.waiters.splice(0)) waiter.resolve(undefined);
          return;
        }
      }
    } catch (err) {
      logger.warn({ err, ...pull.target }, 'could not claim the pulled stream in the live registry; pulling it anyway');
    }
    await this.run(pull);
  }

  /** One attempt: check the URL's addresses, start ffmpeg, and handle how it ends. */
  private async run(pull: Pull): Promise<void> {
    const { logger, policy, client } = this.options;
    if (pull.closed) return;
    let input;
    try {
      input = await pullInput(pull.url, policy);
    } catch (err) {
      const error = isAppError(err) ? err : new AppError('bad_gateway', 'url: the source could not be checked', [], { cause: err });
      if (error.code === 'bad_gateway') return this.failed(pull, error, 'its host could not be resolved');
      logger.warn({ ...pull.target, reason: error.message }, 'pull refused');
      return this.refuse(pull, error);
    }
    let hls: HlsTransmuxer;
    try {
      hls = await HlsTransmuxer.start(join(this.options.dir, `pull-${createHash('sha256').update(idOf(pull.target)).digest('hex').slice(0, 32)}`), logger);
    } catch (err) {
      logger.error({ err, ...pull.target }, 'could not prepare the HLS folder of a pulled stream');
      return this.failed(pull, new AppError('unavailable', 'the server could not prepare the live stream'), 'setup failed');
    }
    if (pull.closed) {
      await hls.stop();
      return;
    }
    const stream = new LiveStream(pull.target, '', hls);
    const startedAt = Date.now();
    let live = false;
    logger.info({ ...pull.target, source: input.shown, convert: pull.convert }, 'pulling a live stream');
    const process = new PullProcess({
      input,
      convert: pull.convert,
      logger,
      ...(input.hlsPlaylist !== undefined ? { feed: (stdin, signal) => feedHls(client, input.hlsPlaylist!, stdin, signal) } : {}),
      onPacket: (packet) => {
        stream.push(packet);
        // The first coded frame (not a header): players attach now and start on it.
        if (live || packet.flags === 0 || packet.flags === 2 || packet.flags === 5) return;
        live = true;
        pull.stream = stream;
        pull.failure = undefined;
        for (const waiter of pull.waiters.splice(0)) waiter.resolve(stream);
        void this.onAir.announce(stream, true).then((has) => (has ? undefined : this.close(pull, 'the room no longer has the item')));
      },
    });
    pull.process = process;
    const end = await process.ended;
    pull.process = undefined;
    if (pull.stream === stream) pull.stream = undefined;
    await this.onAir.takeOff(pull.target, live ? stream : undefined, false);
    if (!live) await hls.stop();
    if (Date.now() - startedAt > STEADY_MS) pull.attempts = 0;
    this.after(pull, end, input.shown);
  }

  private after(pull: Pull, end: PullEnd, shown: string): void {
    if (pull.closed || end.kind === 'stopped') return;
    switch (end.kind) {
      case 'codecs':
        pull.convert = end.convert;
        void this.run(pull);
        return;
      case 'refused':
        this.options.logger.warn({ ...pull.target, source: shown, reason: end.error.message }, 'pull refused');
        void this.refuse(pull, end.error);
        return;
      case 'ended':
        this.options.logger.info({ ...pull.target, source: shown, reason: end.reason }, 'the pulled stream stopped');
        void this.failed(pull, new AppError('unavailable', "the live stream's source is not sending (offline, or it refused the connection); the server tries again"), end.reason);
    }
  }

  /** Tries again after a backoff while the stream is wanted; else stops the pull. */
  private async failed(pull: Pull, failure: AppError, reason: string): Promise<void> {
    pull.failure = failure;
    if (pull.closed) return;
    if (this.stopped || Date.now() > pull.wantedUntil) return this.close(pull, `nobody waits for it any more (${reason})`);
    const delay = Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * 2 ** pull.attempts);
    pull.attempts += 1;
    pull.retry = setTimeout(() => {
      pull.retry = undefined;
      void this.run(pull);
    }, delay);
    pull.retry.unref();
  }

  private async refuse(pull: Pull, error: AppError): Promise<void> {
    pull.failure = error;
    for (const waiter of pull.waiters.splice(0)) waiter.reject(error);
    await this.close(pull, 'refused');
  }

  /** Ends the pull for good: ffmpeg stopped, the stream taken off air, the registry entry withdrawn. */
  private async close(pull: Pull, reason: string): Promise<void> {
    if (pull.closed) return;
    pull.closed = true;
    if (this.pulls.get(idOf(pull.target)) === pull) this.pulls.delete(idOf(pull.target));
    clearTimeout(pull.retry);
    const offline = pull.failure ?? new AppError('not_found', 'the livestream is offline: its source is not being pulled now');
    for (const waiter of pull.waiters.splice(0)) waiter.reject(offline);
    this.options.logger.info({ ...pull.target, reason }, 'pull stopped');
    const ending = pull.process?.ended;
    pull.process?.stop();
    // run() takes the stream off air once ffmpeg is gone; without a process only the entry is left.
    if (ending) await ending;
    await this.onAir.takeOff(pull.target, undefined, true);
  }

  /** Keeps wanted pulls announced and stops the others. */
  private async refresh(): Promise<void> {
    const now = Date.now();
    for (const pull of [...this.pulls.values()]) {
      if (pull.closed) continue;
      if (pull.stream && pull.stream.viewerCount > 0) pull.wantedUntil = now + this.options.idleMs;
      if (now > pull.wantedUntil) {
        await this.close(pull, 'nobody watches it');
        continue;
      }
      if (pull.stream) {
        if (!(await this.onAir.announce(pull.stream, false))) await this.close(pull, 'the room no longer has the item');
      } else {
        // Between attempts the item stays claimed, so players keep coming here.
        await this.options.registry
          .announce(pull.target, { baseUrl: this.options.advertiseUrl(), replicaId: this.options.replicaId, startedAt: now })
          .catch((err: unknown) => this.options.logger.warn({ err, ...pull.target }, 'could not refresh the live registry entry of a pull'));
      }
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.refreshTimer);
    await Promise.allSettled([...this.pulls.values()].map((pull) => this.close(pull, 'the server is stopping')));
  }
}
