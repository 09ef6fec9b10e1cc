/**
 * The media services of a replica with every provider registered, the livestream and library
 * providers included, before any role uses them: actor hosts check new items against them and
 * gateways play and proxy through them. Every replica follows the transcoder pool: actor hosts
 * ask it to probe new items, gateways to transcode what browsers cannot play.
 */
import type { Accounts } from '../accounts/index.js';
import type { StartupConfig } from '../config/index.js';
import { createMediaLibraries, createMediaServices, LibraryProvider, liveProvider, type MediaServices, mediaToolMetrics, openTranscodeClient, PullProvider } from '../media/index.js';
import type { Logger, Metrics } from '../observability/index.js';
import type { Connections } from './connections.js';
import type { Stops } from './stops.js';

export interface MediaSetup {
  config: StartupConfig;
  logger: Logger;
  connections: Connections;
  accounts: Accounts;
  metrics: Metrics;
}

export async function setUpMedia(setup: MediaSetup, stops: Stops): Promise<MediaServices> {
  const { config, logger, connections, accounts, metrics } = setup;
  const media = createMediaServices(config, logger);
  mediaToolMetrics(metrics.registry, media.tools);
  if (config.rtmp.enabled) media.providers.register(liveProvider);
  // Live streams pulled from a URL (docs/2026-11-29-pulled-live-streams.md): any gateway pulls them, RTMP ingest or not.
  if (config.live_pull.max_streams > 0) media.providers.register(new PullProvider(media.policy));
  media.libraries = createMediaLibraries(config, connections.pool, accounts.box, media.client);
  media.providers.register(new LibraryProvider(media.libraries));
  stops.push(() => Promise.resolve(media.close()));
  const transcode = await openTranscodeClient(connections.nats, config.nats.subject_prefix, config.nats.replicas);
  media.transcode = transcode;
  stops.push(() => transcode.close());
  return media;
}
