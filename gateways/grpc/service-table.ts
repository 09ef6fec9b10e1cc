/**
 * Every service of the API with its handlers, typed by the generated interfaces. grpc-js's
 * `addService` takes any map of handlers for any definition; here a service's handlers are typed
 * by its name: each method present, none more, each with its request and response types, and a
 * service added to the protos but not served fails to compile.
 */
import type * as grpc from '@grpc/grpc-js';
import type { AuthServiceHandlers } from './gen/svc/v1/AuthService.js';
import type { ChatServiceHandlers } from './gen/svc/v1/ChatService.js';
import type { MemberServiceHandlers } from './gen/svc/v1/MemberService.js';
import type { PlaybackServiceHandlers } from './gen/svc/v1/PlaybackService.js';
import type { PlaylistServiceHandlers } from './gen/svc/v1/PlaylistService.js';
import type { PollServiceHandlers } from './gen/svc/v1/PollService.js';
import type { RoomServiceHandlers } from './gen/svc/v1/RoomService.js';
import type { ApiProto } from './proto.js';

/**
 * A generated handler interface without the string index signature it inherits from grpc-js's
 * UntypedServiceImplementation, which lets any key through and, under `Omit` or `Pick`, leaves
 * every request typed `any`.
 */
export type Handlers<H> = { [K in keyof H as string extends K ? never : K]: H[K] };

export interface ApiHandlers {
  AuthService: Handlers<AuthServiceHandlers>;
  RoomService: Handlers<RoomServiceHandlers>;
  MemberService: Handlers<MemberServiceHandlers>;
  PlaylistService: Handlers<PlaylistServiceHandlers>;
  PlaybackService: Handlers<PlaybackServiceHandlers>;
  ChatService: Handlers<ChatServiceHandlers>;
  PollService: Handlers<PollServiceHandlers>;
}

type ServiceName = { [K in keyof ApiProto]: ApiProto[K] extends { service: grpc.ServiceDefinition } ? K : never }[keyof ApiProto];
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Holds<T extends true> = T;
/** Compiles only while ApiHandlers names exactly the services of the protos. */
export type _EveryServiceServed = Holds<Same<ServiceName, keyof ApiHandlers>>;

export function addServices(server: grpc.Server, api: ApiProto, handlers: ApiHandlers): void {
  for (const name of Object.keys(handlers) as Array<keyof ApiHandlers>) {
    server.addService(api[name].service, handlers[name]);
  }
}
