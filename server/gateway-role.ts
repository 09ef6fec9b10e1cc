/**
 * The gateway role: the media proxy's slice cache, the public HTTP server with the room
 * WebSockets, the STUN listener and the gRPC API, all over one set of gateway dependencies.
 */
import { join } from 'node:path';
import type { StartupConfig } from '../config/index.js';
import { startGrpcServer, startStunListener } from '../gateways/index.js';
import { type MediaServices, SliceCache } from '../media/index.js';
import type { Logger, Metrics, ReadinessProbe } from '../observability/index.js';
import type { Connections } from './connections.js';
import { setUpGatewayDeps } from './gateway-deps-setup.js';
import { startPublicHttp } from './public-http.js';
import type { SharedServices } from './shared-services.js';
import type { Stops } from './stops.js';

export interface GatewayRoleStart {
  config: StartupConfig;
  logger: Logger;
  connections: Connections;
  shared: SharedServices;
  media: MediaServices;
  metrics: Metrics;
  readiness: ReadinessProbe;
  /** The built web client to serve, when not the default (ServiceOptions.webClientRoot). */
  webClientRoot?: string;
}

export interface GatewayRole {
  httpUrl: string;
  grpcAddress: string;
  /** When the STUN listener runs (`stun.enabled`). */
  stunPort?: number;
  connectedClients: () => number;
  /** When `proxy_slice_cache.enabled`. */
  sliceCache?: SliceCache;
}

export async function startGatewayRole(start: GatewayRoleStart, stops: Stops): Promise<GatewayRole> {
  const { config, logger, metrics, readiness } = start;
  let sliceCache: SliceCache | undefined;
  if (config.proxy_slice_cache.enabled) {
    const cache = await SliceCache.open({
      dir: join(config.data_dir, 'slice-cache'),
      maxBytes: config.proxy_slice_cache.size_mb * 1024 * 1024,
      logger,
      registry: metrics.registry,
    });
    sliceCache = cache;
    // Registered before the HTTP server's stop, so it runs after it: no read is still being served.
    stops.push(() => cache.close());
  }
  // Livestreams learn the public address once the server listens, after they start.
  const listening: { url?: string } = {};
  const gateway = await setUpGatewayDeps({ ...start, sliceCache, httpUrl: () => listening.url ?? '' }, stops);
  const http = await startPublicHttp({ gateway, reviews: start.shared.reviews, media: start.media, readiness, metrics, ...(start.webClientRoot ? { webClientRoot: start.webClientRoot } : {}) }, stops);
  listening.url = http.url;
  let stunPort: number | undefined;
  if (config.stun.enabled) {
    const stun = await startStunListener(config.stun.host, config.stun.port, logger);
    stunPort = stun.address.port;
    stops.push(() => stun.close());
  }
  const grpcServer = await startGrpcServer(gateway, readiness, config.grpc.host, config.grpc.port);
  stops.push(() => grpcServer.stop());
  return {
    httpUrl: http.url,
    grpcAddress: grpcServer.address,
    ...(stunPort !== undefined ? { stunPort } : {}),
    connectedClients: http.connectedClients,
    ...(sliceCache ? { sliceCache } : {}),
  };
}
