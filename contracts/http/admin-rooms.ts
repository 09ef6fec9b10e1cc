/**
 * Rooms for service administrators (`/api/admin/rooms`): every room whatever its status or
 * visibility, read and deleted as the service (the room actor's service caller). A leaf module.
 */
import { z } from 'zod';
import { oneLineText } from '../text.js';
import { defineEndpoint } from './endpoint.js';
import { MemberRoomView, RoomStatus, RoomVisibility } from '../room/model.js';
import { RoomSummary, roomId } from './room.js';
import { PageQuery } from './rooms.js';

const TAGS = ['admin'];

export const AdminRoomSummary = z
  .strictObject({ ...RoomSummary.shape, ownerId: z.string(), ownerUsername: z.string().nullable() })
  .meta({ id: 'AdminRoomSummary' });
export type AdminRoomSummary = z.infer<typeof AdminRoomSummary>;

export const adminListRooms = defineEndpoint({
  method: 'get',
  path: '/api/admin/rooms',
  operationId: 'adminListRooms',
  summary: 'Every room (pending review, rejected and hidden ones too), newest first',
  tags: TAGS,
  access: 'admin',
  query: z.strictObject({
    status: RoomStatus.optional(),
    visibility: RoomVisibility.optional(),
    owner: oneLineText().min(1).max(128).optional().meta({ description: 'Owner user id' }),
    query: oneLineText().max(100).optional().meta({ description: 'As in GET /api/rooms' }),
    ...PageQuery,
  }),
  responses: {
    200: { description: 'One page', schema: z.strictObject({ rooms: z.array(AdminRoomSummary), nextCursor: z.string().optional() }).meta({ id: 'AdminRoomPage' }) },
  },
  errors: ['unauthenticated', 'forbidden'],
});

export const adminGetRoom = defineEndpoint({
  method: 'get',
  path: '/api/admin/rooms/{roomId}',
  operationId: 'adminGetRoom',
  summary: 'A room as the service sees it: members, join requests, bans, playlist, playback',
  tags: TAGS,
  access: 'admin',
  params: z.strictObject({ roomId }),
  responses: { 200: { description: 'The room', schema: MemberRoomView } },
  errors: ['unauthenticated', 'forbidden', 'not_found', 'unavailable', 'busy', 'deadline_exceeded'],
});

export const adminDeleteRoom = defineEndpoint({
  method: 'delete',
  path: '/api/admin/rooms/{roomId}',
  operationId: 'adminDeleteRoom',
  summary: 'Delete a room as the service (logged with the administrator)',
  tags: TAGS,
  access: 'admin',
  params: z.strictObject({ roomId }),
  responses: { 204: { description: 'Deleted' } },
  errors: ['unauthenticated', 'forbidden', 'not_found', 'unavailable', 'busy', 'deadline_exceeded'],
});
