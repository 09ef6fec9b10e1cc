/**
 * Sets up livestreams in a gateway process: the key store, the live registry, with
 * `rtmp.enabled` the RTMP ingest, and with `live_pull.max_streams` above 0 the puller of live
 * streams from URLs (HLS files of both under `<data_dir>/live`).
 */
import { join } from 'node:path';
import type { NatsConnection } from 'nats';
import type pg from 'pg';
import type { SecretBox } from '../../crypto/index.js';
import type { StartupConfig } from '../../config/index.js';
import { StreamKeys } from '../../media/index.js';
import type { MediaGrants, MediaServices } from '../../media/index.js';
import type { Logger } from '../../observability/index.js';
import type { RoomClient } from '../rooms/room-client.js';
import type { LiveDeps } from './live-deps.js';
import { announceKeyChange, LiveIngest } from './live-ingest.js';
import { LivePulls } from './live-pulls.js';
import { LiveRegistry } from './live-registry.js';

export interface LiveStart {
  config: StartupConfig;
  pool: pg.Pool;
  nats: NatsConnection;
  box: SecretBox;
  rooms: RoomClient;
  logger: Logger;
  /** The signer of media URLs the play endpoint uses too, so its live links verify here. */
  grants: MediaGrants;
  /** The address policy and checked upstream client pulled streams are read with. */
  media: Pick<MediaServices, 'policy' | 'client'>;
  /** This replica's HTTP base URL once it listens (the default of `server.advertise_url`). */
  httpUrl: () => string;
}

export async function startLivestreams(options: LiveStart): Promise<{ live: LiveDeps; stop: () => Promise<void> }> {
  const { config, nats, logger } = options;
  const prefix = config.nats.subject_prefix;
  const keys = new StreamKeys(options.pool, options.box);
  const registry = await LiveRegistry.open(nats, prefix, config.nats.replicas);
  const ingest = config.rtmp.enabled
    ? await LiveIngest.start({
        host: config.rtmp.host,
        port: config.rtmp.port,
        dir: join(config.data_dir, 'live'),
        keys,
        registry,
        rooms: options.rooms,
        nats,
        subjectPrefix: prefix,
        replicaId: config.replica_id,
        advertiseUrl: () => config.server.advertise_url || options.httpUrl(),
        logger: logger.child({ component: 'rtmp' }),
      })
    : undefined;
  const pulls =
    config.live_pull.max_streams > 0
      ? new LivePulls({
          dir: join(config.data_dir, 'live'),
          registry,
          rooms: options.rooms,
          policy: options.media.policy,
          client: options.media.client,
          replicaId: config.replica_id,
          advertiseUrl: () => config.server.advertise_url || options.httpUrl(),
          maxPulls: config.live_pull.max_streams,
          idleMs: config.live_pull.idle_seconds * 1000,
          logger: logger.child({ component: 'live-pull' }),
        })
      : undefined;
  const live: LiveDeps = {
    keys,
    registry,
    ...(ingest ? { ingest } : {}),
    ...(pulls ? { pulls } : {}),
    grants: options.grants,
    replicaId: config.replica_id,
    rtmpPort: () => ingest?.port ?? config.rtmp.port,
    keyChanged: (target) => announceKeyChange(nats, prefix, target),
  };
  return {
    live,
    stop: async () => {
      await Promise.all([ingest?.stop(), pulls?.stop()]);
    },
  };
}
