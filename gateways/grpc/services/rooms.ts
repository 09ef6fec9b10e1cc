/**
 * RoomService (without WatchRoom, see `watch.ts`): room.create/get/update/delete,
 * member.join/leave, owner.transfer, and the public room list read from PostgreSQL.
 */
import type { RoomCommandOf, RoomDirectory } from '../../../actors/index.js';
import type { PermissionOverrides, RoomInfo } from '../../../contracts/room/model.js';
import type { Permission } from '../../../contracts/permissions/names.js';
import { AppError } from '../../../errors/index.js';
import { subjectOf } from '../../../accounts/index.js';
import { newRoomId } from '../../rooms/room-client.js';
import type { RoomPasswordGuesses } from '../../rooms/room-password-guesses.js';
import { listRooms } from '../../../contracts/http/rooms.js';
import { parseOrInvalid } from '../../../errors/index.js';
import type { GrpcCalls } from '../call.js';
import type { PermissionOverrides__Output } from '../gen/svc/v1/PermissionOverrides.js';
import type { PermissionOverridesUpdate__Output } from '../gen/svc/v1/PermissionOverridesUpdate.js';
import type { RoomServiceHandlers } from '../gen/svc/v1/RoomService.js';
import type { Handlers } from '../service-table.js';
import { enumIn, type RoomCalls } from '../room-calls.js';
import { answer, QUEUE_MODE, roomInfo, roomView, VISIBILITY, WORD_FILTER_MODE } from '../views.js';
import type { JoinRoomResponse } from '../gen/svc/v1/JoinRoomResponse.js';
import type { WordFilter__Output } from '../gen/svc/v1/WordFilter.js';

/** What newRoomId() makes: 16 random bytes in base64url. */
const CLIENT_ROOM_ID = /^[A-Za-z0-9_-]{22}$/;
const ROLES = ['admin', 'member', 'guest'] as const;
/** As GET /api/rooms. */
const MAX_PAGE = 100;

/** Every RoomService method but WatchRoom (`watch.ts`). */
type RoomHandlers = Omit<Handlers<RoomServiceHandlers>, 'WatchRoom'>;

/** Absent or UNSPECIFIED leaves the mode as it is (the default, at creation). */
function queueModeIn(value: string | number | null | undefined): RoomCommandOf<'room.update'>['queueMode'] {
  if (value === undefined || value === null || value === 'QUEUE_MODE_UNSPECIFIED' || value === 0) return undefined;
  return enumIn(QUEUE_MODE, value, 'queueMode');
}

/** Absent: unchanged; a mode must be named (UNSPECIFIED would silently pick one). */
function wordFilterIn(value: WordFilter__Output | null | undefined): RoomCommandOf<'room.update'>['wordFilter'] {
  if (!value) return undefined;
  return { mode: enumIn(WORD_FILTER_MODE, value.mode, 'wordFilter.mode'), words: value.words };
}

const withRoom = (result: { room: RoomInfo }) => ({ room: roomInfo(result.room) });
const joinAnswer = answer<JoinRoomResponse>('JoinRoomResponse');

export function roomService(
  calls: GrpcCalls,
  rooms: RoomCalls,
  directory: RoomDirectory,
  passwordGuesses: RoomPasswordGuesses,
): RoomHandlers {
  return {
    CreateRoom: calls.unary(async (request, ctx) => {
      if (request.roomId !== undefined && !CLIENT_ROOM_ID.test(request.roomId)) {
        throw AppError.invalid([{ key: 'roomId', message: 'must be 22 characters of base64url (16 random bytes), or absent' }]);
      }
      const roomId = request.roomId ?? newRoomId();
      const settings = request.settings;
      const result = await rooms.send(ctx, roomId, {
        kind: 'room.create',
        name: request.name,
        password: request.password,
        visibility: enumIn(VISIBILITY, request.visibility, 'visibility'),
        requireJoinApproval: request.requireJoinApproval,
        settings: settings
          ? {
              permissionOverrides: overridesIn(settings.permissionOverrides),
              waitForAllReady: settings.waitForAllReady,
              readyTimeoutMs: settings.readyTimeoutMs,
              queueMode: queueModeIn(settings.queueMode),
              voteSkipPercent: settings.voteSkipPercent ?? undefined,
              danmaku: settings.danmaku,
              slowModeSeconds: settings.slowModeSeconds ?? undefined,
              wordFilter: wordFilterIn(settings.wordFilter),
            }
          : undefined,
      });
      return { room: roomInfo(result.room) };
    }),
    GetRoom: rooms.command('room.get', () => ({}), roomView),
    UpdateRoom: rooms.command(
      'room.update',
      (request) => ({
        name: request.name,
        password: request.password,
        visibility: request.visibility === undefined ? undefined : enumIn(VISIBILITY, request.visibility, 'visibility'),
        requireJoinApproval: request.requireJoinApproval,
        permissionOverrides: overridesUpdateIn(request.permissionOverrides),
        waitForAllReady: request.waitForAllReady,
        readyTimeoutMs: request.readyTimeoutMs,
        queueMode: queueModeIn(request.queueMode),
        voteSkipPercent: request.voteSkipPercent ?? undefined,
        danmaku: request.danmaku,
        slowModeSeconds: request.slowModeSeconds ?? undefined,
        wordFilter: wordFilterIn(request.wordFilter),
      }),
      withRoom,
    ),
    DeleteRoom: rooms.command('room.delete', () => ({}), (result) => result),
    JoinRoom: calls.unary(async (request, ctx) => {
      const attempt = { roomId: request.roomId, userId: subjectOf(ctx.caller), ip: ctx.client.ip, password: request.password };
      return joinAnswer(await passwordGuesses.guard(attempt, () => rooms.send(ctx, request.roomId, { kind: 'member.join', password: request.password })));
    }),
    LeaveRoom: rooms.command('member.leave', () => ({}), (result) => result),
    TransferOwnership: rooms.command('owner.transfer', (request) => ({ userId: request.userId }), withRoom),
    ListPublicRooms: calls.unary(async (request) => {
      if (request.limit > MAX_PAGE) throw AppError.invalid([{ key: 'limit', message: `must be at most ${MAX_PAGE} (0: the default)` }]);
      // The HTTP listing's text rules for what reaches the directory query (gRPC's 0 limit is its own).
      parseOrInvalid(listRooms.query!.pick({ query: true, cursor: true }), { query: request.query, ...(request.cursor ? { cursor: request.cursor } : {}) });
      const page = await directory.listPublic({
        query: request.query,
        ...(request.cursor ? { cursor: request.cursor } : {}),
        ...(request.limit ? { limit: request.limit } : {}),
      });
      return {
        rooms: page.rooms.map(({ id, name, hasPassword, requireJoinApproval, memberCount, createdAt }) => ({
          id,
          name,
          hasPassword,
          requireJoinApproval,
          memberCount,
          createdAt,
        })),
        nextCursor: page.nextCursor ?? '',
      };
    }),
  };
}

/** Absent roles use the runtime default (the actor's `undefined`). */
function overridesIn(overrides: PermissionOverrides__Output | null): PermissionOverrides | undefined {
  if (!overrides) return undefined;
  const out: PermissionOverrides = {};
  for (const role of ROLES) {
    const list = overrides[role];
    if (list) out[role] = list.permissions as Permission[];
  }
  return out;
}

type OverridesUpdate = NonNullable<RoomCommandOf<'room.update'>['permissionOverrides']>;

/** Per role: `set` replaces the list, `reset` goes back to the default (the actor's null), absent leaves it. */
function overridesUpdateIn(update: PermissionOverridesUpdate__Output | null): OverridesUpdate | undefined {
  if (!update) return undefined;
  const out: OverridesUpdate = {};
  for (const role of ROLES) {
    const change = update[role];
    if (change?.change === 'set') out[role] = change.set?.permissions ?? [];
    else if (change?.change === 'reset' && change.reset) out[role] = null;
  }
  return out;
}
