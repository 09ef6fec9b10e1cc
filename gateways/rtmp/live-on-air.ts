/**
 * What a live stream held by this replica tells the others and its room, whether it was
 * published here (live-ingest.ts) or is pulled from elsewhere (live-pulls.ts): the registry entry
 * other replicas forward viewers by, and the room's on-air status (`live.status`, as the
 * service). Announced when the stream starts and again at every refresh (the room takes an item
 * off air once its announcements stop); taken off when it ends: viewers closed, HLS stopped and
 * its files removed, the entry withdrawn, the room told. One place, so a pulled stream goes on
 * and off air exactly as a published one does.
 */
import { isAppError } from '../../errors/index.js';
import type { StreamTarget } from '../../media/index.js';
import type { Logger } from '../../observability/index.js';
import type { RoomClient } from '../rooms/room-client.js';
import type { LiveRegistry } from './live-registry.js';
import type { LiveStream } from './live-stream.js';

export interface LiveOnAirOptions {
  registry: LiveRegistry;
  rooms: RoomClient;
  replicaId: string;
  /** This replica's base URL as the other replicas reach it (`server.advertise_url`). */
  advertiseUrl: () => string;
  logger: Logger;
  /** Who reports the status to the room (a service caller's name). */
  caller: string;
}

export class LiveOnAir {
  constructor(private readonly options: LiveOnAirOptions) {}

  /** Writes the registry entry and tells the room the item is on air; false when the room no longer has it (end the stream). */
  async announce(stream: LiveStream, first: boolean): Promise<boolean> {
    const { registry, rooms, logger, replicaId, caller } = this.options;
    const { target } = stream;
    try {
      await registry.announce(target, { baseUrl: this.options.advertiseUrl(), replicaId, startedAt: stream.startedAt });
    } catch (err) {
      logger.warn({ err, ...target }, 'could not refresh the live registry entry; other replicas may not find this stream');
    }
    try {
      await rooms.sendAsService(target.roomId, { kind: 'live.status', mediaId: target.mediaId, online: true }, caller);
    } catch (err) {
      if (isAppError(err) && (err.code === 'not_found' || err.code === 'invalid_argument')) {
        logger.info({ ...target, reason: err.message }, 'the room no longer has this live item');
        return false;
      }
      if (first) logger.warn({ err, ...target }, 'could not tell the room the item is live; retrying with the next refresh');
    }
    return true;
  }

  /**
   * Ends `stream` (when there is one) and takes `target` off air; `withdraw` false keeps the
   * registry entry (a pull that will try its source again still holds the item).
   */
  async takeOff(target: StreamTarget, stream: LiveStream | undefined, withdraw = true): Promise<void> {
    const { registry, rooms, logger, caller } = this.options;
    stream?.end();
    const results = await Promise.allSettled([
      stream ? stream.hls.stop() : Promise.resolve(),
      withdraw ? registry.withdraw(target) : Promise.resolve(),
      stream ? rooms.sendAsService(target.roomId, { kind: 'live.status', mediaId: target.mediaId, online: false }, caller) : Promise.resolve(),
    ]);
    for (const result of results) {
      if (result.status === 'rejected') logger.warn({ err: result.reason as unknown, ...target }, 'cleanup after a livestream failed');
    }
  }
}
