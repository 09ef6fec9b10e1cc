/**
 * The public surface of actors/: what code outside actors/ may import (lint refuses a deeper
 * import; tests may reach inside). docs/2026-11-29-public-surfaces.md.
 */
export { EVENT_PERMISSION, ROOM_ACTOR_TYPE, RoomDirectory, checkNewMedia, createRoomActorType, memberPermissions, ownerPermissions, requireProxySwitch, runChatRetention, type MediaChecker, type MediaFieldsToCheck, type MemberRoomView, type PermissionOverrides, type ProbedSeekable, type RoomCommand, type RoomCommandKind, type RoomCommandOf, type RoomEvent, type RoomResultOf, type RoomReviewHook, type RoomRole, type RoomUnderReview, type SeekProbe } from './room/index.js';
export { slowModeWaitMs } from './room/moderation/slow-mode.js';
export { visibleToUser } from './room/room-directory.js';
export { actorHostMetrics } from './runtime/actor-metrics.js';
export { type Caller, type EventEnvelope } from './runtime/actor-type.js';
export { ActorClient, type SendResult, type TypedActorClient } from './runtime/client.js';
export { purgeExpiredCommands } from './runtime/command-log.js';
export { ActorEvents } from './runtime/events.js';
export { ActorHost } from './runtime/host.js';
export { openBucket } from './runtime/kv-bucket.js';
export { RecreatingBucket } from './runtime/recreating-bucket.js';
export { assertActorId, liveBucketName } from './runtime/names.js';
export { messageOf } from './runtime/nats-errors.js';
export { decode, encode } from './runtime/wire.js';
