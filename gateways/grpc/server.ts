/**
 * The public gRPC API of the gateway role: the svc.v1 services over the same domain code as
 * HTTP (accounts, RoomClient, the shared room watch), plus `grpc.health.v1.Health` (serving
 * while the readiness probe passes) and server reflection (v1 and v1alpha), so stock clients
 * such as grpcurl can list and call the services without the .proto files. Plaintext HTTP/2:
 * TLS ends at the ingress (deploy/k8s/).
 */
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { HealthImplementation, protoPath as healthProtoPath, type ServingStatus } from 'grpc-health-check';
import { AppError } from '../../errors/index.js';
import { ClientAddresses } from '../../net/index.js';
import type { ReadinessProbe } from '../../observability/index.js';
import type { GatewayDeps } from '../gateway-deps.js';
import { RoomDirectory } from '../../actors/index.js';
import { GrpcCalls } from './call.js';
import { apiServiceNames, loadApi } from './proto.js';
import { addReflection } from './reflection.js';
import { RoomCalls } from './room-calls.js';
import { authService } from './services/auth.js';
import { chatService } from './services/chat.js';
import { pollService } from './services/polls.js';
import { memberService } from './services/members.js';
import { playbackService } from './services/playback.js';
import { playlistService } from './services/playlist.js';
import { RoomPasswordGuesses } from '../rooms/room-password-guesses.js';
import { roomService } from './services/rooms.js';
import { addServices } from './service-table.js';
import { watchRoom } from './services/watch.js';

/** How often the health status is brought in line with the readiness probe. */
const HEALTH_INTERVAL_MS = 5_000;
/** Room snapshots answer up to ~1 MiB (the playlist budget); leave room for the envelope. */
const MAX_MESSAGE_BYTES = 4 * 1024 * 1024;
/** Requests are small; a larger one is refused before it is decoded. */
const MAX_RECEIVE_BYTES = 256 * 1024;

export interface GrpcServer {
  /** host:port it listens on. */
  address: string;
  stop(): Promise<void>;
}

export async function startGrpcServer(gateway: GatewayDeps, readiness: ReadinessProbe, host: string, port: number): Promise<GrpcServer> {
  const { api, definition } = loadApi();
  const server = new grpc.Server({
    'grpc.max_send_message_length': MAX_MESSAGE_BYTES,
    'grpc.max_receive_message_length': MAX_RECEIVE_BYTES,
    // Streams (WatchRoom) live long behind proxies that drop idle connections.
    'grpc.keepalive_time_ms': 60_000,
    'grpc.keepalive_timeout_ms': 20_000,
  });
  const calls = new GrpcCalls({ logger: gateway.logger, accounts: gateway.accounts, addresses: new ClientAddresses(gateway.config.server) });
  const rooms = new RoomCalls(calls, gateway.commands);

  addServices(server, api, {
    AuthService: authService(calls, gateway.accounts),
    RoomService: {
      ...roomService(calls, rooms, new RoomDirectory(gateway.pool), new RoomPasswordGuesses(gateway.redis)),
      WatchRoom: watchRoom(calls, gateway.watcher, gateway.connections, gateway.connectionCap),
    },
    MemberService: memberService(rooms),
    PlaylistService: playlistService(rooms),
    PlaybackService: playbackService(rooms),
    ChatService: chatService(rooms),
    PollService: pollService(rooms),
  });

  const health = new HealthImplementation({ '': 'NOT_SERVING' });
  health.addToServer(server);
  const healthDefinition = protoLoader.loadSync(healthProtoPath, { includeDirs: [healthProtoPath.replace(/health\/v1\/health\.proto$/, '')] });
  addReflection(server, { ...definition, ...healthDefinition });

  const serviceNames = ['', ...apiServiceNames()];
  let last: ServingStatus | undefined;
  const refreshHealth = async (): Promise<void> => {
    const dependencies = await readiness.check();
    const status: ServingStatus = dependencies.every((dependency) => dependency.ok) ? 'SERVING' : 'NOT_SERVING';
    if (status === last) return;
    last = status;
    for (const name of serviceNames) health.setStatus(name, status);
    gateway.logger.info({ status, failing: dependencies.filter((dependency) => !dependency.ok).map((dependency) => dependency.name) }, 'gRPC health status');
  };
  await refreshHealth();
  const timer = setInterval(() => {
    refreshHealth().catch((err: unknown) => gateway.logger.error({ err }, 'gRPC health refresh failed'));
  }, HEALTH_INTERVAL_MS);
  timer.unref();

  const boundPort = await new Promise<number>((resolve, reject) => {
    server.bindAsync(`${host.includes(':') ? `[${host}]` : host}:${port}`, grpc.ServerCredentials.createInsecure(), (err, bound) => {
      if (err) reject(/in use|EADDRINUSE/i.test(err.message) ? new AppError('unavailable', `grpc.port ${port} on ${host} is already in use`, [], { cause: err }) : err);
      else resolve(bound);
    });
  });
  const shownHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;

  return {
    address: `${shownHost.includes(':') ? `[${shownHost}]` : shownHost}:${boundPort}`,
    stop: async () => {
      clearInterval(timer);
      for (const name of serviceNames) health.setStatus(name, 'NOT_SERVING');
      // Unary calls finish; streams (WatchRoom) would hold a graceful shutdown open forever.
      await new Promise<void>((resolve) => {
        const force = setTimeout(() => server.forceShutdown(), 2_000);
        server.tryShutdown(() => {
          clearTimeout(force);
          resolve();
        });
      });
    },
  };
}
