/**
 * The actors' light entry (docs/2026-11-29-public-surfaces.md): what a process that talks to
 * actors but hosts none needs (a worker, a transcoder, and the media area every role loads),
 * without the room's code that `actors/index.ts` names: about 120 modules, which every worker
 * loaded at its start for a client, a type name and the wire's encoding (2026-12-01).
 */
export { ActorClient, type SendResult, type TypedActorClient } from './runtime/client.js';
export { purgeExpiredCommands } from './runtime/command-log.js';
export { openBucket } from './runtime/kv-bucket.js';
export { messageOf } from './runtime/nats-errors.js';
export { RecreatingBucket } from './runtime/recreating-bucket.js';
export { decode, encode } from './runtime/wire.js';
export { requireProxySwitch } from './room/media/proxy-switch.js';
export { ROOM_ACTOR_TYPE } from './room/room-type.js';
