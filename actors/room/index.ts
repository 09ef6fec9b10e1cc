/**
 * The room actor: what hosts register and what gateways type their traffic with.
 * Behaviour and decisions: `docs/2026-11-21-room-actor.md`; its parts: `docs/2026-11-29-room-parts.md`.
 */
export { createRoomActorType } from './parts.js';
export type { RoomActorDeps } from './core.js';
export { ROOM_ACTOR_TYPE } from './core.js';
export { DEFAULT_LIVE_STATUS_TTL_MS } from './live/live-status.js';
export { DEFAULT_PERSIST_INTERVAL_MS } from './playback/room-playback.js';
export { DEFAULT_PRESENCE_TTL_MS } from './members/presence-sweep.js';
export type { RoomReviewHook, RoomUnderReview } from './review-hook.js';
export type { ProbedSeekable, SeekProbe } from './seek-probe.js';
export { runChatRetention, type ChatRetentionResult } from './chat/chat-retention.js';
export { parseRoomCommand } from './parse-command.js';
export { checkNewMedia } from './validate.js';
export type { MediaChecker, MediaFieldsToCheck } from './media-check.js';
export { requireProxySwitch } from './media/proxy-switch.js';
export { memberPermissions, ownerPermissions, rolePermissions } from './permissions.js';
export { RoomDirectory } from './room-directory.js';
export { ROOM_COMMAND_KINDS, type RoomCommand, type RoomCommandKind, type RoomCommandOf } from '../../contracts/room/commands.js';
export type { RoomResults, RoomResultOf } from '../../contracts/room/results.js';
export { EVENT_PERMISSION, type MemberLeftReason, type VoiceLeftReason, type PlaybackCause, type PlaylistEvent, type RoomEvent, type RoomEventType } from '../../contracts/room/events.js';
export type * from '../../contracts/room/model.js';
export { ROOM_ROLES } from '../../contracts/room/model.js';
export { ROOM_LIMITS } from '../../contracts/room/limits.js';
