/**
 * The transcoder role (`svc serve --role transcoder`, inside `all`): the shared transcodes of
 * items browsers cannot decode (docs/2026-11-29-how-items-reach-browsers.md). It picks its H.264
 * encoder at start (a hardware one when a test encode works, else libx264 with a preset for
 * `transcoder.cores`), keeps segments under `<data_dir>/transcode/` (`transcoder.cache_mb`),
 * reads media through a loopback source server that is this process's media proxy, and serves
 * the pool's probes and reads over NATS.
 */
import { join } from 'node:path';
import type { StartupConfig } from '../config/index.js';
import { requireProxySwitch } from '../actors/client.js';
import type { MediaServices } from '../media/index.js';
import { openTranscoder, type RunningTranscoder } from '../media/index.js';
import type { Logger, Metrics } from '../observability/index.js';
import type { RuntimeSettings } from '../settings/index.js';
import type { Connections } from './connections.js';
import type { Stops } from './stops.js';

export interface TranscoderRoleStart {
  config: StartupConfig;
  logger: Logger;
  connections: Connections;
  media: MediaServices;
  metrics: Metrics;
  settings: RuntimeSettings;
}

export async function startTranscoderRole(start: TranscoderRoleStart, stops: Stops): Promise<RunningTranscoder> {
  const { config, logger, connections, media, metrics, settings } = start;
  const transcoder = await openTranscoder({
    nc: connections.nats,
    prefix: config.nats.subject_prefix,
    bucketReplicas: config.nats.replicas,
    replicaId: config.replica_id,
    media,
    folder: join(config.data_dir, 'transcode'),
    cacheBytes: config.transcoder.cache_mb * 1024 * 1024,
    maxEncodes: config.transcoder.max_encodes,
    maxHeight: config.transcoder.max_height,
    cores: config.transcoder.cores,
    hardwareEncoders: config.transcoder.hardware_encoders,
    requireReads: (item) => requireProxySwitch(settings, item),
    registry: metrics.registry,
    logger,
  });
  stops.push(() => transcoder.stop());
  return transcoder;
}
