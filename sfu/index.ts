/**
 * The public surface of sfu/: the room's call on LiveKit (docs/2026-11-29-sfu.md) — its room
 * name, the token a member opens it with, the room API client and the warden that keeps the
 * SFU in line with the room. What code outside sfu/ may import (lint refuses a deeper import;
 * tests may reach inside). docs/2026-11-29-public-surfaces.md.
 */
export { CALL_TOKEN_TTL_S, signCallToken, type CallToken, type CallTokenRequest } from './call-token.js';
export { CallWarden, type CallWardenOptions } from './call-warden.js';
export { roomOfSfuRoom, SFU_PARTS, sfuRoomName, type SfuPart } from './room-name.js';
export { sfuConfigOf, type SfuConfig } from './sfu-config.js';
export { SfuRooms, type CallParticipant } from './sfu-rooms.js';
export { SHARE_SOURCES } from './sources.js';
