/**
 * The actors role: an actor host running room actors, with everything a room needs (settings,
 * reviews, notifications, ICE servers, media providers and the seek probe).
 */
import { ActorHost, actorHostMetrics, createRoomActorType, ROOM_ACTOR_TYPE } from '../actors/index.js';
import type { StartupConfig } from '../config/index.js';
import { type MediaServices, type TranscodeClient, UpstreamSeekProbe } from '../media/index.js';
import type { MediaItem } from '../contracts/room/model.js';
import { iceServerSource } from '../webrtc/index.js';
import { CallWarden, sfuConfigOf } from '../sfu/index.js';
import { natsNotificationPublisher } from '../notifications/index.js';
import type { Logger, Metrics } from '../observability/index.js';
import type { RuntimeSettings } from '../settings/index.js';
import { type ReviewClient, reviewWorkflowBundle, WorkflowRoomReviewHook } from '../workflows/index.js';
import type { Connections } from './connections.js';
import type { Stops } from './stops.js';

export interface ActorsRoleStart {
  config: StartupConfig;
  logger: Logger;
  connections: Connections;
  settings: RuntimeSettings;
  reviews: ReviewClient;
  media: MediaServices;
  metrics: Metrics;
  /** This process is a worker too: its workflow bundle is built first. */
  withWorker: boolean;
}

export async function startActorsRole(start: ActorsRoleStart, stops: Stops): Promise<ActorHost> {
  const { config, logger, connections, media, metrics } = start;
  // Bundling the workflows (webpack) holds the event loop for a second or more: an actor host
  // started meanwhile misses its heartbeats and logs that it lost its lease on a healthy start.
  if (start.withWorker) await reviewWorkflowBundle(logger);
  // The meter may ask for the counts before start returns: none until then.
  const started: { host?: ActorHost } = {};
  // The warden runs here, beside the rooms whose changes it carries to the SFU (docs/2026-11-29-sfu.md).
  const sfu = sfuConfigOf(config);
  const warden = sfu ? new CallWarden(sfu, { logger }) : undefined;
  if (warden) {
    warden.listenForRevocations(connections.nats, config.nats.subject_prefix);
    stops.push(() => Promise.resolve(warden.close()));
  }
  const actorHost = await ActorHost.start({
    nc: connections.nats,
    prefix: config.nats.subject_prefix,
    bucketReplicas: config.nats.replicas,
    hostId: config.replica_id,
    types: [
      createRoomActorType({
        pool: connections.pool,
        settings: start.settings,
        logger,
        review: new WorkflowRoomReviewHook(start.reviews),
        notifications: natsNotificationPublisher(connections.nats, config.nats.subject_prefix, logger),
        iceServers: iceServerSource(config),
        voiceMaxParticipants: config.voice.max_participants,
        ...(warden ? { sfu: warden } : {}),
        media: media.providers,
        seekProbe: new UpstreamSeekProbe({
          providers: media.providers,
          http: media.client,
          logger,
          ...(media.transcode ? { reach: transcodeProbe(media.transcode) } : {}),
        }),
      }),
    ],
    logger,
    leaseTtlMs: config.actors.lease_ttl_ms,
    heartbeatMs: config.actors.heartbeat_ms,
    idleTimeoutMs: config.actors.idle_timeout_ms,
    mailboxSize: config.actors.mailbox_size,
    maxQueueWaitMs: config.actors.max_queue_wait_ms,
    drainTimeoutMs: config.actors.drain_timeout_ms,
    meter: actorHostMetrics(metrics.registry, { types: [ROOM_ACTOR_TYPE], activeByType: () => started.host?.activeByType() }),
  });
  started.host = actorHost;
  // Drained before the connections close: rooms are persisted and handed off first.
  stops.push(() => actorHost.drain());
  return actorHost;
}

/** The seek probe's `reach`: the transcoder pool's probe of the item. */
function transcodeProbe(transcode: TranscodeClient) {
  return (item: MediaItem, signal: AbortSignal, roomId: string) => transcode.probe(roomId, item, signal);
}
