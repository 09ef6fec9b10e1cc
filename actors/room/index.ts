/**
 * The room actor: what hosts register and what gateways type their traffic with.
 * Behaviour and decisions: `docs/2026-11-21-room-actor.md`.
 */
export { createRoomActorType } from './room-actor.js';
export type { RoomActorDeps } from './core.js';
export { DEFAULT_PERSIST_INTERVAL_MS, DEFAULT_PRESENCE_TTL_MS, ROOM_ACTOR_TYPE } from './core.js';
export type { SettingsReader } from './permissions.js';
export type { RoomReviewHook, RoomUnderReview } from './review-hook.js';
export type { ProbedSeekable, SeekProbe } from './seek-check.js';
export { runChatRetention, type ChatRetentionResult } from './chat-retention.js';
export { ROOM_COMMAND_KINDS, parseRoomCommand, type RoomCommand, type RoomCommandKind, type RoomCommandOf } from './commands.js';
export type { RoomResults, RoomResultOf } from './results.js';
export { EVENT_PERMISSION, type MemberLeftReason, type VoiceLeftReason, type PlaybackCause, type PlaylistEvent, type RoomEvent, type RoomEventType } from './events.js';
export type * from './model.js';
export { ROOM_ROLES } from './model.js';
export { ROOM_LIMITS } from './limits.js';
