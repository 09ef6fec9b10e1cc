/**
 * Room members (`/api/rooms/{roomId}/members`, `/bans`, `/join-requests`, `/permissions`):
 * listing, roles, per-room permission overrides, kicks, bans and join requests. Each is a
 * room-actor command; the actor applies the permission rules (docs/2026-11-21-room-actor.md).
 * A leaf module.
 */
import { z } from 'zod';
import { ROOM_LIMITS } from '../room/limits.js';
import { defineEndpoint } from './endpoint.js';
import { MemberView, Permission, PermissionOverrides, RoomRole } from '../room/model.js';
import { idempotencyHeaders, overrideLists, roomId, seq, userId } from './room.js';

const TAGS = ['members'];
const ROOM_ERRORS = ['unauthenticated', 'forbidden', 'not_found', 'unavailable', 'busy', 'rate_limited', 'deadline_exceeded'] as const;
const roomParams = z.strictObject({ roomId });
const memberParams = z.strictObject({ roomId, userId });
const MemberList = z.strictObject({ members: z.array(MemberView), seq }).meta({ id: 'MemberList' });
const MemberAnswer = z.strictObject({ member: MemberView, seq }).meta({ id: 'MemberAnswer' });
const UserIdAnswer = z.strictObject({ userId: z.string(), seq }).meta({ id: 'UserIdAnswer' });

const MemberPage = z
  .strictObject({
    members: z.array(MemberView),
    nextCursor: z.string().optional().meta({ description: 'Pass as cursor for the next page; absent on the last' }),
    total: z.number().int().meta({ description: 'Every active member the filters match' }),
    seq,
  })
  .meta({ id: 'MemberPage' });

export const listMembers = defineEndpoint({
  method: 'get',
  path: '/api/rooms/{roomId}/members',
  operationId: 'listMembers',
  summary:
    'Active members of the room with their role and presence, a page at a time by user id (view_member_list). ' +
    "A crowd's room view lists only its owner and admins; this reads everyone (docs/2026-11-30-crowds.md)",
  tags: TAGS,
  access: 'user_or_guest',
  params: roomParams,
  query: z.strictObject({
    cursor: userId.optional().meta({ description: 'nextCursor of the previous page: members after that user id' }),
    limit: z.coerce
      .number()
      .int()
      .min(1)
      .max(ROOM_LIMITS.memberPageMaxLimit)
      .optional()
      .meta({ description: `Default ${ROOM_LIMITS.memberPageDefaultLimit}` }),
    online: z.enum(['true', 'false']).optional().meta({ description: 'Only those online (true) or offline (false)' }),
    q: z.string().max(ROOM_LIMITS.memberQueryMaxChars).optional().meta({ description: 'Only those whose display name contains this, in any case' }),
  }),
  responses: { 200: { description: 'One page; nextCursor is absent on the last', schema: MemberPage } },
  errors: [...ROOM_ERRORS],
});

export const setMemberRole = defineEndpoint({
  method: 'put',
  path: '/api/rooms/{roomId}/members/{userId}/role',
  operationId: 'setMemberRole',
  summary: 'Change a member\'s role (manage_members; only the owner makes or acts on admins)',
  tags: TAGS,
  access: 'user_or_guest',
  params: memberParams,
  headers: idempotencyHeaders,
  body: z.strictObject({ role: RoomRole }),
  responses: { 200: { description: 'The member now', schema: MemberAnswer } },
  errors: [...ROOM_ERRORS, 'conflict'],
});

export const setMemberPermissions = defineEndpoint({
  method: 'put',
  path: '/api/rooms/{roomId}/members/{userId}/permissions',
  operationId: 'setMemberPermissions',
  summary:
    "Replace one member's own grants and denials on top of their role (manage_members; only the owner acts on admins; " +
    'others give or take only permissions they hold). Both lists empty: the role alone. docs/2026-11-26-member-permissions.md',
  tags: TAGS,
  access: 'user_or_guest',
  params: memberParams,
  headers: idempotencyHeaders,
  body: z.strictObject({
    grant: z.array(Permission).max(64).meta({ description: 'Held on top of the role; administration only for admins, guests within their ceiling' }),
    deny: z.array(Permission).max(64).meta({ description: 'Not held, whatever the role says' }),
  }),
  responses: { 200: { description: 'The member now', schema: MemberAnswer } },
  errors: [...ROOM_ERRORS, 'conflict'],
});

export const kickMember = defineEndpoint({
  method: 'post',
  path: '/api/rooms/{roomId}/members/{userId}/kick',
  operationId: 'kickMember',
  summary: 'Remove a member (manage_members); they may join again',
  tags: TAGS,
  access: 'user_or_guest',
  params: memberParams,
  headers: idempotencyHeaders,
  responses: { 200: { description: 'Kicked', schema: UserIdAnswer } },
  errors: [...ROOM_ERRORS, 'conflict'],
});

const BanPage = z
  .strictObject({
    members: z.array(MemberView),
    nextCursor: z.string().optional().meta({ description: 'Pass as cursor for the next page; absent on the last' }),
    total: z.number().int().meta({ description: `Every ban of the room (at most ${ROOM_LIMITS.bansMax} can be added)` }),
    seq,
  })
  .meta({ id: 'BanPage' });

export const listBans = defineEndpoint({
  method: 'get',
  path: '/api/rooms/{roomId}/bans',
  operationId: 'listBans',
  summary: 'Users banned from the room, a page at a time by user id (manage_members)',
  tags: TAGS,
  access: 'user_or_guest',
  params: roomParams,
  query: z.strictObject({
    cursor: userId.optional().meta({ description: 'nextCursor of the previous page: bans after that user id' }),
    limit: z.coerce
      .number()
      .int()
      .min(1)
      .max(ROOM_LIMITS.banPageMaxLimit)
      .optional()
      .meta({ description: `Default ${ROOM_LIMITS.banPageDefaultLimit}` }),
  }),
  responses: { 200: { description: 'One page; nextCursor is absent on the last', schema: BanPage } },
  errors: [...ROOM_ERRORS],
});

export const banMember = defineEndpoint({
  method: 'put',
  path: '/api/rooms/{roomId}/bans/{userId}',
  operationId: 'banMember',
  summary: `Ban a user from the room, member or not (manage_members); at most ${ROOM_LIMITS.bansMax} bans per room (limit_exceeded)`,
  tags: TAGS,
  access: 'user_or_guest',
  params: memberParams,
  headers: idempotencyHeaders,
  responses: { 200: { description: 'Banned', schema: MemberAnswer } },
  errors: [...ROOM_ERRORS, 'conflict', 'limit_exceeded'],
});

export const unbanMember = defineEndpoint({
  method: 'delete',
  path: '/api/rooms/{roomId}/bans/{userId}',
  operationId: 'unbanMember',
  summary: 'Lift a ban (manage_members)',
  tags: TAGS,
  access: 'user_or_guest',
  params: memberParams,
  headers: idempotencyHeaders,
  responses: { 200: { description: 'Unbanned', schema: UserIdAnswer } },
  errors: [...ROOM_ERRORS, 'conflict'],
});

export const listJoinRequests = defineEndpoint({
  method: 'get',
  path: '/api/rooms/{roomId}/join-requests',
  operationId: 'listJoinRequests',
  summary: 'Join requests waiting for approval (manage_members)',
  tags: TAGS,
  access: 'user_or_guest',
  params: roomParams,
  responses: { 200: { description: 'Pending members', schema: MemberList } },
  errors: [...ROOM_ERRORS],
});

export const approveJoinRequest = defineEndpoint({
  method: 'post',
  path: '/api/rooms/{roomId}/join-requests/{userId}/approve',
  operationId: 'approveJoinRequest',
  summary: 'Admit a pending member (manage_members)',
  tags: TAGS,
  access: 'user_or_guest',
  params: memberParams,
  headers: idempotencyHeaders,
  responses: { 200: { description: 'The member, now active', schema: MemberAnswer } },
  errors: [...ROOM_ERRORS, 'conflict'],
});

export const rejectJoinRequest = defineEndpoint({
  method: 'post',
  path: '/api/rooms/{roomId}/join-requests/{userId}/reject',
  operationId: 'rejectJoinRequest',
  summary: 'Turn a join request down (manage_members)',
  tags: TAGS,
  access: 'user_or_guest',
  params: memberParams,
  headers: idempotencyHeaders,
  responses: { 200: { description: 'Rejected', schema: UserIdAnswer } },
  errors: [...ROOM_ERRORS, 'conflict'],
});

const RolePermissions = z.strictObject({ admin: z.array(Permission), member: z.array(Permission), guest: z.array(Permission) });
const PermissionsAnswer = z
  .strictObject({
    overrides: PermissionOverrides,
    defaults: RolePermissions.meta({ description: 'The runtime defaults (permissions.*DefaultPermissions) now' }),
    seq,
  })
  .meta({ id: 'RoomPermissions' });

export const getRoomPermissions = defineEndpoint({
  method: 'get',
  path: '/api/rooms/{roomId}/permissions',
  operationId: 'getRoomPermissions',
  summary: 'The room\'s per-role permission overrides and the runtime defaults they replace (members)',
  tags: TAGS,
  access: 'user_or_guest',
  params: roomParams,
  responses: { 200: { description: 'Overrides and defaults', schema: PermissionsAnswer } },
  errors: [...ROOM_ERRORS],
});

export const updateRoomPermissions = defineEndpoint({
  method: 'patch',
  path: '/api/rooms/{roomId}/permissions',
  operationId: 'updateRoomPermissions',
  summary: 'Set per-role overrides (edit_room_settings): a list replaces the default for that role, null returns to it',
  description:
    'Guest overrides are capped at view_member_list, view_chat_history and use_webrtc (invalid_argument on permissionOverrides.guest). ' +
    'manage_members and edit_room_settings are never granted to members or guests (invalid_argument). Only the room owner changes the ' +
    "admin role; another admin changes members' and guests' permissions only within the permissions they hold (forbidden, naming the rest).",
  tags: TAGS,
  access: 'user_or_guest',
  params: roomParams,
  headers: idempotencyHeaders,
  body: z.strictObject({ admin: overrideLists.admin.nullable().optional(), member: overrideLists.member.nullable().optional(), guest: overrideLists.guest.nullable().optional() }),
  responses: { 200: { description: 'Overrides and defaults now', schema: PermissionsAnswer } },
  errors: [...ROOM_ERRORS, 'conflict'],
});
