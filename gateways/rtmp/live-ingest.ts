/**
 * RTMP ingest (`rtmp.enabled`, `rtmp.host`, `rtmp.port`): publishers push to
 * `rtmp://host:port/live/<streamKey>`. A publish is accepted only once its key is found in
 * `live_stream_keys`; until then its packets wait in a small buffer, and a wrong key closes
 * the connection. An accepted publish becomes a LiveStream (FLV fan-out + HLS), is entered in
 * the live registry, and its item goes on air in the room (`live.status`, sent as the
 * service). Every REGISTRY_REFRESH_MS each stream re-announces itself to the registry and the
 * room (the room forgets an item whose announcements stop) and checks its key still stands;
 * a key rotated through any replica is checked at once through a NATS notice. A key is its
 * holder's: a publish is accepted only while the holder's account is active and the room says
 * the holder may publish to the item (`live.authorize` as the holder), and a running one is
 * checked again at every refresh and at once when the room's membership or permissions change
 * (its events) or the holder's account is banned (the session revocation notice), so a co-host
 * who is kicked, banned or demoted is cut. RTMP playback is not offered: viewers use
 * `/media/live/...` with a signed grant.
 */
import { createHash } from 'node:crypto';
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import type { NatsConnection, Subscription } from 'nats';
import { ROOM_ACTOR_TYPE, type RoomEvent } from '../../actors/index.js';
import { ActorEvents } from '../../actors/index.js';
import { decode, encode } from '../../actors/index.js';
import { parseRevocation, revocationSubject } from '../../accounts/index.js';
import { isAppError } from '../../errors/index.js';
import { RTMP_APP } from '../../media/index.js';
import type { KeyHolding, StreamKeys, StreamTarget } from '../../media/index.js';
import type { Logger } from '../../observability/index.js';
import type { RoomClient } from '../rooms/room-client.js';
import { HlsTransmuxer } from './hls-transmuxer.js';
import { REGISTRY_REFRESH_MS, type LiveRegistry } from './live-registry.js';
import { LiveOnAir } from './live-on-air.js';
import { LiveStream } from './live-stream.js';
import { newRtmpSession, ownedPacket, type AvPacket, type NmsRtmpSession } from './nms.js';
import { AppError } from '../../errors/index.js';

/** Packets a publish may send while its key is being checked (a few seconds of media). */
const PENDING_PACKETS_MAX = 2000;
const INGEST_CALLER = 'rtmp-ingest';

export interface LiveIngestOptions {
  host: string;
  port: number;
  /** `<data_dir>/live`: one HLS directory per running stream. */
  dir: string;
  keys: StreamKeys;
  registry: LiveRegistry;
  rooms: RoomClient;
  nats: NatsConnection;
  subjectPrefix: string;
  replicaId: string;
  /** This replica's base URL as the other replicas reach it (`server.advertise_url`). */
  advertiseUrl: () => string;
  logger: Logger;
}

/** The NATS subject on which a stream key change is announced to every replica's ingest. */
export function keyChangeSubject(prefix: string): string {
  return `${prefix}.live.keys`;
}

/** Tells every ingest that `target`'s key changed or went away: a publish with the old key ends. */
export function announceKeyChange(nats: NatsConnection, prefix: string, target: StreamTarget): void {
  nats.publish(keyChangeSubject(prefix), encode(target));
}

export function targetId(target: StreamTarget): string {
  return `${target.roomId}/${target.mediaId}`;
}

interface Publish {
  session: NmsRtmpSession;
  stream: LiveStream | undefined;
  /** The key's holder, whose right to publish the stream lives on. */
  holder: string;
  /** Stops following the room's events. */
  unfollow?: () => void;
  /** Set when the publish was accepted and is being set up, or ended. */
  closed: boolean;
}

export class LiveIngest {
  private readonly server: Server;
  private readonly sockets = new Set<Socket>();
  private readonly publishes = new Map<string, Publish>();
  private refreshTimer: NodeJS.Timeout | undefined;
  private subscription: Subscription | undefined;
  private revocations: Subscription | undefined;
  /** The rooms of running publishes: their events may take a holder's right away. */
  private readonly roomEvents: ActorEvents;
  private readonly onAir: LiveOnAir;
  private stopped = false;
  /** The port actually bound (rtmp.port 0 picks a free one). */
  port = 0;

  private constructor(private readonly options: LiveIngestOptions) {
    this.server = createServer((socket) => this.onConnection(socket));
    this.roomEvents = new ActorEvents(options.nats, options.subjectPrefix, options.logger);
    this.onAir = new LiveOnAir({ ...options, caller: INGEST_CALLER });
  }

  static async start(options: LiveIngestOptions): Promise<LiveIngest> {
    const ingest = new LiveIngest(options);
    await new Promise<void>((resolve, reject) => {
      const failed = (err: NodeJS.ErrnoException): void =>
        reject(err.code === 'EADDRINUSE' ? new AppError('unavailable', `rtmp.port ${options.port} on ${options.host} is already in use`) : err);
      ingest.server.once('error', failed);
      ingest.server.listen(options.port, options.host, () => {
        ingest.server.off('error', failed);
        resolve();
      });
    });
    const address = ingest.server.address();
    ingest.port = typeof address === 'object' && address ? address.port : options.port;
    ingest.subscription = options.nats.subscribe(keyChangeSubject(options.subjectPrefix), {
      callback: (err, msg) => {
        if (err) return;
        const target = decode(msg.data) as StreamTarget;
        const publish = ingest.publishes.get(targetId(target));
        if (publish?.stream) void ingest.recheck(publish.stream);
      },
    });
    // A banned account's publishes end at once (the refresh would end them within seconds anyway).
    ingest.revocations = options.nats.subscribe(revocationSubject(options.subjectPrefix), {
      callback: (err, msg) => {
        if (err) return;
        const revocation = parseRevocation(msg.data);
        if (revocation?.scope !== 'user' || revocation.reason !== 'banned') return;
        for (const publish of ingest.publishes.values()) {
          if (publish.stream && publish.holder === revocation.userId) void ingest.recheck(publish.stream);
        }
      },
    });
    ingest.refreshTimer = setInterval(() => void ingest.refresh(), REGISTRY_REFRESH_MS);
    ingest.refreshTimer.unref();
    return ingest;
  }

  /** Streams published to this replica and the HTTP-FLV viewers attached to them (metrics). */
  stats(): { streams: number; viewers: number } {
    let streams = 0;
    let viewers = 0;
    for (const publish of this.publishes.values()) {
      if (!publish.stream) continue;
      streams += 1;
      viewers += publish.stream.viewerCount;
    }
    return { streams, viewers };
  }

  /** The stream of `target` if it is published to this replica. */
  local(target: StreamTarget): LiveStream | undefined {
    return this.publishes.get(targetId(target))?.stream;
  }

  private onConnection(socket: Socket): void {
    this.sockets.add(socket);
    socket.once('close', () => this.sockets.delete(socket));
    socket.on('error', () => undefined);
    const session = newRtmpSession(socket);
    session.run();
    let app = '';
    let name = '';
    const pending: AvPacket[] = [];
    /** The stream once accepted: set synchronously by accept, before any await, so no packet is lost. */
    const holder: { stream?: LiveStream } = {};
    session.rtmp.onConnectCallback = (req) => {
      app = req.app;
      name = req.name;
    };
    session.rtmp.onPlayCallback = () => {
      this.options.logger.info({ app }, 'RTMP play refused: livestreams are watched over HTTP (/media/live)');
      socket.destroy();
    };
    session.rtmp.onPacketCallback = (packet) => {
      if (holder.stream) holder.stream.push(packet);
      else if (pending.length < PENDING_PACKETS_MAX) pending.push(ownedPacket(packet));
      else socket.destroy();
    };
    session.rtmp.onPushCallback = () => void this.accept(session, app, name, pending, holder);
    socket.once('close', () => {
      for (const publish of this.publishes.values()) {
        if (publish.session === session && publish.stream) void this.end(publish.stream.target, 'the publisher disconnected');
      }
    });
  }

  /** Checks the key and sets the stream up; undefined (and the connection closed) when refused. */
  private async accept(session: NmsRtmpSession, app: string, key: string, pending: AvPacket[], holder: { stream?: LiveStream }): Promise<void> {
    const { logger, keys, registry } = this.options;
    const refuse = (reason: string, fields: Record<string, unknown> = {}): void => {
      // The key itself is a secret: never logged.
      logger.warn({ ...fields, remote: session.socket.remoteAddress }, `RTMP publish refused: ${reason}`);
      session.socket.destroy();
    };
    if (this.stopped) return refuse('the server is stopping');
    if (app !== RTMP_APP) return refuse(`unknown application "${app.slice(0, 64)}" (publish to /${RTMP_APP}/<stream key>)`);
    let target: KeyHolding | null;
    try {
      target = await keys.lookup(key);
    } catch (err) {
      return refuse('the stream key could not be checked', { err });
    }
    if (!target) return refuse('unknown or revoked stream key');
    const id = targetId(target);
    if (this.publishes.has(id)) return refuse('this item is already being published', { ...target });
    const publish: Publish = { session, stream: undefined, closed: false, holder: target.holder };
    this.publishes.set(id, publish);
    try {
      const refusal = await this.holderRefusal(target);
      if (refusal !== undefined) {
        this.publishes.delete(id);
        return refuse(refusal, { ...target });
      }
      const elsewhere = await registry.find(target);
      if (elsewhere && elsewhere.replicaId !== this.options.replicaId) {
        this.publishes.delete(id);
        return refuse('this item is already being published to another replica', { ...target, replica: elsewhere.replicaId });
      }
      const hls = await HlsTransmuxer.start(join(this.options.dir, createHash('sha256').update(id).digest('hex').slice(0, 32)), logger);
      const stream = new LiveStream({ roomId: target.roomId, mediaId: target.mediaId }, key, hls);
      for (const packet of pending.splice(0)) stream.push(packet);
      publish.stream = stream;
      holder.stream = stream;
      if (session.socket.destroyed || this.stopped) {
        await this.end(target, 'the publisher left during setup');
        return;
      }
      publish.unfollow = this.follow(stream, target.holder);
      logger.info({ ...target }, 'RTMP publish started');
      await this.announce(stream, true);
    } catch (err) {
      logger.error({ err, ...target }, 'could not start the livestream');
      await this.end(target, 'setup failed');
      session.socket.destroy();
    }
  }

  /** Ends the publish of `target` on this replica: viewers, HLS, registry, and the room's status. */
  async end(target: StreamTarget, reason: string): Promise<void> {
    const id = targetId(target);
    const publish = this.publishes.get(id);
    if (!publish || publish.closed) return;
    publish.closed = true;
    this.publishes.delete(id);
    publish.unfollow?.();
    publish.session.socket.destroy();
    const stream = publish.stream;
    if (!stream) return;
    this.options.logger.info({ ...target, reason }, 'RTMP publish ended');
    await this.onAir.takeOff(target, stream);
  }

  /** The registry entry and the room's on-air status; a room that no longer has the item ends the stream. */
  private async announce(stream: LiveStream, first: boolean): Promise<void> {
    if (!(await this.onAir.announce(stream, first))) await this.end(stream.target, 'the room no longer has the item');
  }

  /**
   * Ends the stream when its key was rotated or revoked (the item or room removed), or its
   * holder may no longer publish (banned account; kicked, banned or without
   * `publish_livestream` in the room).
   */
  private async recheck(stream: LiveStream): Promise<boolean> {
    let now: KeyHolding | null;
    try {
      now = await this.options.keys.lookup(stream.streamKey);
    } catch {
      return true; // The database is unreachable: keep streaming, check again later.
    }
    if (!now || targetId(now) !== targetId(stream.target)) {
      await this.end(stream.target, 'its stream key was rotated or revoked');
      return false;
    }
    const refusal = await this.holderRefusal(now);
    if (refusal === undefined) return true;
    await this.end(stream.target, refusal);
    return false;
  }

  /** Why the key's holder may not publish to its item now; undefined when they may (or the room cannot answer now). */
  private async holderRefusal(holding: KeyHolding): Promise<string | undefined> {
    if (!holding.holderActive) return 'the stream key holder\'s account is banned';
    try {
      await this.options.rooms.sendAsMember(holding.roomId, { kind: 'live.authorize', mediaId: holding.mediaId }, holding.holder);
      return undefined;
    } catch (err) {
      if (isAppError(err) && (err.code === 'forbidden' || err.code === 'not_found' || err.code === 'invalid_argument')) {
        return `the stream key holder may no longer publish to this item: ${err.message}`;
      }
      // Unreachable room: keep the decision for the next check rather than cut a stream for an outage.
      this.options.logger.warn({ err, roomId: holding.roomId }, 'could not ask the room whether the stream key holder may publish');
      return undefined;
    }
  }

  /** Checks the stream again when the room's members or permissions change. */
  private follow(stream: LiveStream, holder: string): () => void {
    return this.roomEvents.subscribe<RoomEvent>(ROOM_ACTOR_TYPE, stream.target.roomId, ({ event }) => {
      const about =
        event.type === 'room.updated' ||
        (event.type === 'member.left' && event.userId === holder) ||
        ((event.type === 'member.banned' || event.type === 'member.updated') && event.member.userId === holder);
      if (about) void this.recheck(stream);
    });
  }

  private async refresh(): Promise<void> {
    for (const publish of [...this.publishes.values()]) {
      const stream = publish.stream;
      if (!stream || publish.closed) continue;
      if (await this.recheck(stream)) await this.announce(stream, false);
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.refreshTimer);
    this.subscription?.unsubscribe();
    this.revocations?.unsubscribe();
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      for (const socket of this.sockets) socket.destroy();
    });
    await Promise.allSettled([...this.publishes.values()].map((p) => (p.stream ? this.end(p.stream.target, 'the server is stopping') : Promise.resolve())));
  }
}
