/**
 * The public gRPC API's package definition, loaded at run time from `proto/` by
 * @grpc/proto-loader. LOADER_OPTIONS must match the flags of `infra/build-proto.sh`: the types in
 * `gen/` (generated from the same files) describe the objects this loader produces. The same
 * files as protobufjs reflection are what the message encoders walk (`encode.ts`).
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import protobuf from 'protobufjs';
import { MessageEncoders } from './encode.js';
import type { ProtoGrpcType as AuthProto } from './gen/auth.js';
import type { ProtoGrpcType as ChatProto } from './gen/chat.js';
import type { ProtoGrpcType as PlaybackProto } from './gen/playback.js';
import type { ProtoGrpcType as PlaylistProto } from './gen/playlist.js';
import type { ProtoGrpcType as PollsProto } from './gen/polls.js';
import type { ProtoGrpcType as RoomsProto } from './gen/rooms.js';

/** camelCase field names (the room actor's), 64-bit integers as numbers, enums as their names. */
export const LOADER_OPTIONS: protoLoader.Options = {
  keepCase: false,
  longs: Number,
  enums: String,
  defaults: true,
  oneofs: true,
};

/** `proto/` of the repository: this file runs from `dist/gateways/grpc/`. */
export const PROTO_DIR = fileURLToPath(new URL('../../../proto/', import.meta.url));
export const API_PACKAGE = 'svc.v1';
const API_FILES = readdirSync(new URL('svc/v1/', `file://${PROTO_DIR}`))
  .filter((name) => name.endsWith('.proto'))
  .sort()
  .map((name) => `svc/v1/${name}`);

export type ApiProto = (AuthProto & ChatProto & PlaybackProto & PlaylistProto & PollsProto & RoomsProto)['svc']['v1'];

let loaded: { definition: protoLoader.PackageDefinition; api: ApiProto } | undefined;

/** Loaded once per process (the server, and every client made with `client.ts`). */
export function loadApi(): { definition: protoLoader.PackageDefinition; api: ApiProto } {
  if (!loaded) {
    const definition = protoLoader.loadSync(API_FILES, { ...LOADER_OPTIONS, includeDirs: [PROTO_DIR] });
    const root = grpc.loadPackageDefinition(definition) as unknown as { svc: { v1: ApiProto } };
    loaded = { definition, api: root.svc.v1 };
  }
  return loaded;
}

/** Full names of the API's services, `svc.v1.RoomService` and so on (messages and enums carry a `format`). */
export function apiServiceNames(): string[] {
  const { definition } = loadApi();
  return Object.keys(definition).filter((name) => name.startsWith(`${API_PACKAGE}.`) && !('format' in definition[name]!));
}

let encoders: MessageEncoders | undefined;

/** Encoders of the API's messages over its descriptors, made once per process (camelCase names, as the loader's). */
export function apiEncoders(): MessageEncoders {
  if (!encoders) {
    const root = new protobuf.Root();
    root.resolvePath = (_origin, target) => join(PROTO_DIR, target);
    root.loadSync(API_FILES, { keepCase: false });
    root.resolveAll();
    encoders = new MessageEncoders(root.lookup(API_PACKAGE) as protobuf.Namespace);
  }
  return encoders;
}
