/**
 * What the web client offers the rest of the repository (docs/2026-11-29-public-surfaces.md):
 * the parts that also run in Node, which `svc watch` (cli/watch/) reuses so that a desktop
 * player is kept in step by the same engine, over the same connection, as a page. Loaded only
 * by that command (its modules are imported when it runs).
 */
export { ClockEstimator, SyncEngine, roomPositionAt, type PlayerAction, type SyncPhase } from './src/sync/index.js';
export { RoomConnection, type ConnectionEnvironment, type ConnectionStatus, type RoomSocket } from './src/realtime/connection.js';
export { ApiError } from './src/api/errors.js';
export { applyRoomEvent } from './src/state/room-view.js';
