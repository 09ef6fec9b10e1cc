/**
 * Into the room of the link, the way the room page's visitor view does (web/src/views/room/
 * visitor-view.tsx): a member goes straight in; anyone else joins, with `--room-password` when
 * the room has one. What stops it (a ban, a room under review, a full room, a wrong password,
 * a join request waiting for approval) is said in a sentence, the server's where it has one.
 */
import type { RoomView } from '../../contracts/room/model.js';
import { AppError } from '../../errors/index.js';
import { explained } from './sign-in.js';
import type { RoomApi } from './room-api.js';

/** Joins when needed; answers the room's name. */
export async function enterRoom(api: RoomApi, roomId: string, roomPassword: string | undefined): Promise<string> {
  const path = `/api/rooms/${encodeURIComponent(roomId)}`;
  let view: RoomView;
  try {
    view = await api.get<RoomView>(path);
  } catch (err) {
    throw explained(err, `room ${roomId}`);
  }
  if (view.access === 'member') return view.room.name;
  const { room, me } = view;
  if (room.status === 'pending_review') throw new AppError('failed_precondition', `the room "${room.name}" is waiting for review and cannot be joined yet`);
  if (room.status === 'rejected') throw new AppError('failed_precondition', `the room "${room.name}" was rejected in review and cannot be joined`);
  if (me.status === 'banned') throw new AppError('forbidden', `you are banned from the room "${room.name}"`);
  if (me.status === 'pending') throw pendingError(room.name);
  if (room.hasPassword && roomPassword === undefined) {
    throw new AppError('invalid_argument', `the room "${room.name}" has a password: give it with --room-password (or SVC_WATCH_ROOM_PASSWORD)`, [
      { key: 'room-password', message: 'is required for this room' },
    ]);
  }
  let answer: { status: 'active' | 'pending' };
  try {
    answer = await api.post(`${path}/join`, room.hasPassword ? { password: roomPassword } : {});
  } catch (err) {
    throw explained(err, `joining "${room.name}"`);
  }
  if (answer.status === 'pending') throw pendingError(room.name);
  return room.name;
}

function pendingError(name: string): AppError {
  return new AppError('failed_precondition', `your request to join "${name}" waits for an admin of the room to approve it: run svc watch again once they have`);
}
