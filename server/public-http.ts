/**
 * The gateway's public HTTP server: the Koa app (API, web client, media, health) and the room
 * WebSockets on one port. Answers its base URL and a count of open client connections for
 * `svc system stats`.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AppError } from '../errors/index.js';
import { cookiePolicyFor, createHttpApp, type GatewayDeps, RealtimeGateway, httpServer } from '../gateways/index.js';
import type { MediaServices } from '../media/index.js';
import type { Metrics, ReadinessProbe } from '../observability/index.js';
import { type ReviewClient, temporalUiLink } from '../workflows/index.js';
import type { Stops } from './stops.js';

export interface PublicHttp {
  /** Base URL, with 127.0.0.1 for a wildcard listen address. */
  url: string;
  connectedClients: () => number;
}

export interface PublicHttpStart {
  gateway: GatewayDeps;
  reviews: ReviewClient;
  media: MediaServices;
  readiness: ReadinessProbe;
  metrics: Metrics;
  webClientRoot?: string;
}

export async function startPublicHttp(start: PublicHttpStart, stops: Stops): Promise<PublicHttp> {
  const { gateway, reviews, media, readiness, metrics } = start;
  const { config, logger, accounts } = gateway;
  const app = createHttpApp({
    config,
    logger,
    readiness,
    metrics: metrics.http,
    api: { accounts, cookies: cookiePolicyFor(config), reviews, gateway, reviewLink: temporalUiLink(config.temporal.ui_url, config.temporal.namespace) },
    webClient: {
      embeds: media.providers.embeds(),
      ...(gateway.sfu ? { sfuPublicUrl: gateway.sfu.config.publicUrl } : {}),
      ...(start.webClientRoot ? { root: start.webClientRoot } : {}),
    },
  });
  const server = httpServer(app);
  const realtime = new RealtimeGateway(gateway, { registry: metrics.registry });
  realtime.attach(server);
  const connectedClients = countConnections(server);
  await listen(server, config.server.port, config.server.host);
  const { port } = server.address() as AddressInfo;
  const host = config.server.host === '0.0.0.0' || config.server.host === '::' ? '127.0.0.1' : config.server.host;
  stops.push(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  );
  // Before the server closes its connections: sockets get a 1012 close and rooms their presence.leave.
  stops.push(() => realtime.close());
  return { url: `http://${host}:${port}`, connectedClients };
}

/** Open client connections of the public HTTP server (WebSocket clients ride on them). */
function countConnections(server: Server): () => number {
  let open = 0;
  server.on('connection', (socket) => {
    open += 1;
    socket.once('close', () => {
      open -= 1;
    });
  });
  return () => open;
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => {
      reject(
        err.code === 'EADDRINUSE'
          ? new AppError('unavailable', `server.port ${port} on ${host} is already in use`)
          : err,
      );
    });
    server.listen(port, host, () => resolve());
  });
}
