/**
 * The media parts one process shares: the provider registry (also the room actor's
 * `MediaChecker`), the signer of media URLs, the safe upstream client and the per-item
 * resolution cache. Built once at start from the startup config; the service registers further
 * providers (the livestream one) on `providers` before serving.
 */
import type { StartupConfig } from '../config/index.js';
import type { Logger } from '../observability/index.js';
import type { MediaLibraries } from './libraries/libraries.js';
import { MediaGrants, mediaGrantKey } from './media-grant.js';
import { builtinProviders } from './providers/builtin.js';
import type { ProviderRegistry } from './providers/registry.js';
import { AddressPolicy } from './proxy/address-policy.js';
import { Resolutions } from './proxy/resolutions.js';
import { UpstreamClient } from './proxy/upstream-client.js';
import { SubtitleWorkers } from './subtitles/subtitle-workers.js';
import { MediaTools } from './tools/media-tools.js';
import type { TranscodeClient } from './transcode/transcode-client.js';

/** HLS playlists are rewritten in memory; a VOD playlist of many hours is well under this. */
export const PLAYLIST_LIMIT_BYTES = 4 * 1024 * 1024;

export interface MediaServices {
  providers: ProviderRegistry;
  grants: MediaGrants;
  client: UpstreamClient;
  /** Which addresses the server connects to for members' URLs (`media_proxy.allowed_networks`): the proxy's and the live pulls'. */
  policy: AddressPolicy;
  resolutions: Resolutions;
  grantTtlMs: number;
  playlistLimitBytes: number;
  /**
   * `transcoder.max_height`: the height a burned variant of copied video is converted at, at
   * most (media/transcode/burn.ts). Gateways write its playlists, transcoders encode it: one
   * deployment's config says it to both.
   */
  transcodeMaxHeight: number;
  /** The pool every ffprobe and ffmpeg of a request runs in (`media_tools.*`). */
  tools: MediaTools;
  /** The worker threads subtitle files are checked and converted in, off the event loop. */
  subtitleWorkers: SubtitleWorkers;
  /** Connected media libraries (media/libraries/): set by the service with the database and the secret box, with the `library` provider. */
  libraries?: MediaLibraries;
  /** The transcoder pool (media/transcode/): set by the service once NATS is connected. */
  transcode?: TranscodeClient;
  close(): Promise<void>;
}

export function createMediaServices(config: Pick<StartupConfig, 'media_proxy' | 'media_tools' | 'credential_encryption_key' | 'youtube' | 'transcoder'>, logger: Logger): MediaServices {
  const options = config.media_proxy;
  const subtitleWorkers = new SubtitleWorkers();
  const policy = new AddressPolicy(options.allowed_networks);
  const client = new UpstreamClient({
    policy,
    headersTimeoutMs: options.headers_timeout_ms,
    idleTimeoutMs: options.idle_timeout_ms,
    maxRedirects: options.max_redirects,
  });
  return {
    providers: builtinProviders(client, config.youtube.iframe_api_url === '' ? null : { script: config.youtube.iframe_api_url, frameOrigin: config.youtube.embed_origin }),
    grants: new MediaGrants(mediaGrantKey(config.credential_encryption_key)),
    client,
    policy,
    resolutions: new Resolutions({ timeoutMs: options.headers_timeout_ms * 2 }),
    grantTtlMs: options.grant_ttl_seconds * 1000,
    playlistLimitBytes: PLAYLIST_LIMIT_BYTES,
    transcodeMaxHeight: config.transcoder.max_height,
    tools: new MediaTools({ concurrency: config.media_tools.concurrency, queueSize: config.media_tools.queue_size, queueWaitMs: config.media_tools.queue_wait_ms, logger }),
    subtitleWorkers,
    close: async () => {
      client.close();
      await subtitleWorkers.close();
    },
  };
}
