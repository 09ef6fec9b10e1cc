/**
 * A typed client of the gRPC API for tests, benchmarks and tools: one channel, every service
 * as promise-returning methods named like the RPCs (`client.rooms.GetRoom({roomId})`), failures
 * as `GrpcCallError` (an AppError with the stable code, issues and request id from the
 * trailers), and WatchRoom as a typed stream.
 *
 *   const client = connectGrpc(address);
 *   const { session } = await client.auth.SignInWithPassword({ username, password });
 *   const me = client.as(session!.accessToken);
 *   const { room } = await me.rooms.CreateRoom({ name: 'Movie night', visibility: 'ROOM_VISIBILITY_PUBLIC' });
 */
import * as grpc from '@grpc/grpc-js';
import type { AuthServiceClient } from './gen/svc/v1/AuthService.js';
import type { ChatServiceClient } from './gen/svc/v1/ChatService.js';
import type { PollServiceClient } from './gen/svc/v1/PollService.js';
import type { MemberServiceClient } from './gen/svc/v1/MemberService.js';
import type { PlaybackServiceClient } from './gen/svc/v1/PlaybackService.js';
import type { PlaylistServiceClient } from './gen/svc/v1/PlaylistService.js';
import type { RoomServiceClient } from './gen/svc/v1/RoomService.js';
import type { WatchRoomRequest } from './gen/svc/v1/WatchRoomRequest.js';
import type { WatchRoomResponse__Output } from './gen/svc/v1/WatchRoomResponse.js';
import { COMMAND_ID_KEY } from './call.js';
import { loadApi } from './proto.js';
import { GrpcCallError } from './status.js';

export { GrpcCallError } from './status.js';

export interface CallOptions {
  /** Access token: sent as `authorization: Bearer <token>`. */
  token?: string;
  /** Milliseconds from now. */
  deadlineMs?: number;
  /** Idempotency key of a room command (`svc-command-id`). */
  commandId?: string;
  /** `x-forwarded-for`: the client address a gateway with `server.trust_proxy` rate-limits by. */
  forwardedFor?: string;
  metadata?: Record<string, string>;
}

type UnaryMethod<F> = F extends { (argument: infer Req, callback: grpc.requestCallback<infer Res>): grpc.ClientUnaryCall }
  ? (request: Req, options?: CallOptions) => Promise<Res>
  : never;

/** The RPCs of a generated client (PascalCase names), unary ones as promises. */
export type Promised<C> = {
  [K in keyof C as K extends string ? (K extends Capitalize<K> ? (UnaryMethod<C[K]> extends never ? never : K) : never) : never]: UnaryMethod<C[K]>;
};

export interface SvcGrpc {
  auth: Promised<AuthServiceClient>;
  rooms: Promised<RoomServiceClient>;
  members: Promised<MemberServiceClient>;
  playlist: Promised<PlaylistServiceClient>;
  playback: Promised<PlaybackServiceClient>;
  chat: Promised<ChatServiceClient>;
  polls: Promised<PollServiceClient>;
  /** RoomService.WatchRoom; errors arrive as `GrpcCallError` on the stream's 'error'. */
  watchRoom(request: WatchRoomRequest, options?: CallOptions): grpc.ClientReadableStream<WatchRoomResponse__Output>;
  /** The same client with these options on every call (typically a token). */
  as(defaults: CallOptions | string): SvcGrpc;
  close(): void;
}

export interface ConnectOptions {
  /** Default: plaintext (h2c), as the gateways listen; TLS to reach them through a proxy. */
  credentials?: grpc.ChannelCredentials;
  /** Channel options, e.g. `grpc.default_authority` for a proxy that routes by host. */
  channelOptions?: grpc.ChannelOptions;
}

export function connectGrpc(address: string, options: ConnectOptions = {}): SvcGrpc {
  const { api } = loadApi();
  const credentials = options.credentials ?? grpc.credentials.createInsecure();
  const rooms = new api.RoomService(address, credentials, options.channelOptions);
  const channelOverride = rooms.getChannel();
  const clients = {
    auth: new api.AuthService(address, credentials, { channelOverride }),
    rooms,
    members: new api.MemberService(address, credentials, { channelOverride }),
    playlist: new api.PlaylistService(address, credentials, { channelOverride }),
    playback: new api.PlaybackService(address, credentials, { channelOverride }),
    chat: new api.ChatService(address, credentials, { channelOverride }),
    polls: new api.PollService(address, credentials, { channelOverride }),
  };
  const methods = {
    auth: Object.keys(api.AuthService.service),
    rooms: Object.keys(api.RoomService.service),
    members: Object.keys(api.MemberService.service),
    playlist: Object.keys(api.PlaylistService.service),
    playback: Object.keys(api.PlaybackService.service),
    chat: Object.keys(api.ChatService.service),
    polls: Object.keys(api.PollService.service),
  };
  const close = (): void => channelOverride.close();

  const facade = (defaults: CallOptions): SvcGrpc => {
    const promised = <C>(client: grpc.Client, names: string[]): Promised<C> => {
      const out: Record<string, unknown> = {};
      for (const name of names) {
        out[name] = (request: unknown, options: CallOptions = {}) => {
          const merged = { ...defaults, ...options };
          return new Promise((resolve, reject) => {
            const method = (client as unknown as Record<string, (...args: unknown[]) => unknown>)[name]!;
            method.call(client, request, metadataOf(merged), callOptionsOf(merged), (err: grpc.ServiceError | null, value: unknown) => {
              if (err) reject(new GrpcCallError(err));
              else resolve(value);
            });
          });
        };
      }
      return out as Promised<C>;
    };
    return {
      auth: promised<AuthServiceClient>(clients.auth, methods.auth),
      rooms: promised<RoomServiceClient>(clients.rooms, methods.rooms.filter((name) => name !== 'WatchRoom')),
      members: promised<MemberServiceClient>(clients.members, methods.members),
      playlist: promised<PlaylistServiceClient>(clients.playlist, methods.playlist),
      playback: promised<PlaybackServiceClient>(clients.playback, methods.playback),
      chat: promised<ChatServiceClient>(clients.chat, methods.chat),
      polls: promised<PollServiceClient>(clients.polls, methods.polls),
      watchRoom: (request, options = {}) => {
        const merged = { ...defaults, ...options };
        const stream = clients.rooms.WatchRoom(request, metadataOf(merged), callOptionsOf(merged));
        // Errors carry our trailers; hand them on as GrpcCallError, like the unary calls.
        const emit = stream.emit.bind(stream);
        stream.emit = ((event: string, ...args: unknown[]) =>
          event === 'error' && args[0] instanceof Error && 'code' in args[0] ? emit(event, new GrpcCallError(args[0] as grpc.ServiceError)) : emit(event, ...args)) as typeof stream.emit;
        return stream;
      },
      as: (more) => facade({ ...defaults, ...(typeof more === 'string' ? { token: more } : more) }),
      close,
    };
  };
  return facade({});
}

function metadataOf(options: CallOptions): grpc.Metadata {
  const metadata = new grpc.Metadata();
  if (options.token) metadata.set('authorization', `Bearer ${options.token}`);
  if (options.commandId) metadata.set(COMMAND_ID_KEY, options.commandId);
  if (options.forwardedFor) metadata.set('x-forwarded-for', options.forwardedFor);
  for (const [key, value] of Object.entries(options.metadata ?? {})) metadata.set(key, value);
  return metadata;
}

function callOptionsOf(options: CallOptions): grpc.CallOptions {
  return options.deadlineMs === undefined ? {} : { deadline: Date.now() + options.deadlineMs };
}
