/**
 * A transcoder with everything it runs on (the transcoder role's start, server/transcoder-role.ts):
 * the H.264 encoder chosen for this machine, the segment store, the loopback source server over
 * this process's own media proxy, and the service on NATS. Each rung it opens sniffs the
 * source's container from its first bytes (so ffmpeg is held to that one demuxer, as the probe
 * was), plans the rung from the item's reach and starts a rung encoder on its shelf.
 */
import type { NatsConnection } from 'nats';
import type { Registry } from 'prom-client';
import { AppError } from '../../errors/index.js';
import type { MediaItem } from '../../contracts/room/model.js';
import type { Logger } from '../../observability/index.js';
import type { MediaServices } from '../media-services.js';
import { MediaProxy } from '../proxy/media-proxy.js';
import { sniffAudioFile } from '../tools/audio-sniff.js';
import { sniffContainer } from '../tools/container-sniff.js';
import { firstBytes } from '../tools/proxied-read.js';
import { planRung } from './encode-plan.js';
import { detectH264Encoder, hasZscale, softwareEncoder } from './hw-encoders.js';
import { rungRequest } from './ladder.js';
import { RungEncoder } from './rung-encoder.js';
import { SegmentStore } from './segment-store.js';
import { SourceServer } from './source-server.js';
import { transcodeMetrics } from './transcode-metrics.js';
import { transcoderToken } from './transcode-wire.js';
import { Transcoder, type OpenRung } from './transcoder.js';

/** Longest the first bytes of a source may take to arrive when a rung opens. */
const SNIFF_TIMEOUT_MS = 20_000;

export interface TranscoderStart {
  nc: NatsConnection;
  prefix: string;
  /** Copies of the transcoders bucket (`nats.replicas`). */
  bucketReplicas: number;
  replicaId: string;
  media: MediaServices;
  folder: string;
  cacheBytes: number;
  maxEncodes: number;
  maxHeight: number;
  cores: number;
  hardwareEncoders: boolean;
  requireReads: (item: MediaItem) => void;
  registry: Registry;
  logger: Logger;
}

export interface RunningTranscoder {
  /** For the readiness detail: the encoder in use and how many run. */
  details(): { encoder: string; running: number; limit: number };
  stop(): Promise<void>;
}

export async function openTranscoder(start: TranscoderStart): Promise<RunningTranscoder> {
  const { media, logger } = start;
  const [encoder, zscale] = await Promise.all([start.hardwareEncoders ? detectH264Encoder({ cores: start.cores }) : Promise.resolve(softwareEncoder(start.cores)), hasZscale()]);
  const store = new SegmentStore({ root: start.folder, maxBytes: start.cacheBytes });
  const sources = await SourceServer.start(new MediaProxy({ client: media.client, resolutions: media.resolutions, grants: media.grants, playlistLimitBytes: media.playlistLimitBytes }));
  const holder: { transcoder?: Transcoder } = {};
  const meter = transcodeMetrics(start.registry, () => holder.transcoder, store, start.maxEncodes);

  const openRung: OpenRung = async ({ key, source, reach, rung, burn }) => {
    const head = await firstBytes(source.url, SNIFF_TIMEOUT_MS);
    const container = sniffContainer(head) ?? sniffAudioFile(head);
    if (!container) throw new AppError('failed_precondition', 'the media no longer starts like a file this server reads; its source may have changed since it was added');
    const plan = planRung({ url: source.url, container, reach, facts: reach.facts }, rungRequest(rung, burn));
    const shelf = await store.shelf(key);
    const rungEncoder = new RungEncoder({ plan, shelf, encoder, zscale, logger });
    rungEncoder.on('progress', ({ speed }) => meter.speed(speed));
    return { encoder: rungEncoder, has: (n) => shelf.has(n) };
  };

  const transcoder = await Transcoder.start({
    nc: start.nc,
    prefix: start.prefix,
    bucketReplicas: start.bucketReplicas,
    id: transcoderToken(start.replicaId),
    providers: media.providers,
    resolutions: media.resolutions,
    tools: media.tools,
    sources,
    openRung,
    maxEncodes: start.maxEncodes,
    maxHeight: () => start.maxHeight,
    requireReads: start.requireReads,
    encoder: encoder.label,
    logger,
    observer: meter,
    closed: (key) => void store.drop(key),
  });
  holder.transcoder = transcoder;
  logger.info({ encoder: encoder.label, toneMapping: zscale, maxEncodes: start.maxEncodes }, `transcoder encodes with ${encoder.label}`);
  return {
    details: () => ({ encoder: encoder.label, running: transcoder.running, limit: start.maxEncodes }),
    stop: async () => {
      await transcoder.stop();
      await sources.close();
    },
  };
}
