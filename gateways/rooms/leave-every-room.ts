import type pg from 'pg';
import type { UserCaller } from '../../accounts/index.js';
import { AppError } from '../../errors/index.js';
import type { RoomClient } from './room-client.js';

/**
 * A closing account's rooms, settled through the room actors (they own membership and
 * ownership): each room it owns goes to another active member who holds an account (a room
 * admin first, then whoever joined first), or is deleted when there is nobody to take it; every
 * other membership and join request is left. Bans stay: they name an id nobody will hold again.
 */
export interface RoomsSettled {
  left: number;
  transferred: number;
  deleted: number;
}

export async function leaveEveryRoom(pool: pg.Pool, rooms: RoomClient, caller: UserCaller): Promise<RoomsSettled> {
  const settled: RoomsSettled = { left: 0, transferred: 0, deleted: 0 };
  const send = { counted: true } as const;
  const owned = await pool.query<{ id: string }>('SELECT id FROM rooms WHERE owner_id = $1 ORDER BY created_at', [caller.userId]);
  for (const { id } of owned.rows) {
    if (await handOver(pool, rooms, caller, id)) {
      await rooms.send(id, { kind: 'member.leave' }, caller, send);
      settled.transferred += 1;
    } else {
      await rooms.send(id, { kind: 'room.delete' }, caller, send);
      settled.deleted += 1;
    }
  }
  const memberships = await pool.query<{ room_id: string }>(
    `SELECT m.room_id FROM room_members m JOIN rooms r ON r.id = m.room_id
      WHERE m.user_id = $1 AND m.status IN ('active', 'pending') AND r.owner_id <> $1`,
    [caller.userId],
  );
  for (const { room_id: roomId } of memberships.rows) {
    const { result } = await rooms.send(roomId, { kind: 'member.leave' }, caller, send);
    if (result.left) settled.left += 1;
  }
  return settled;
}

/** Transfers the room to the first member who can take it; false when nobody can. */
async function handOver(pool: pg.Pool, rooms: RoomClient, caller: UserCaller, roomId: string): Promise<boolean> {
  const candidates = await pool.query<{ user_id: string }>(
    `SELECT user_id FROM room_members
      WHERE room_id = $1 AND user_id <> $2 AND status = 'active' AND NOT guest
      ORDER BY (role = 'admin') DESC, joined_at, user_id`,
    [roomId, caller.userId],
  );
  for (const { user_id: userId } of candidates.rows) {
    try {
      await rooms.send(roomId, { kind: 'owner.transfer', userId }, caller, { counted: true });
      return true;
    } catch (error) {
      // Gone since the read, or at their own room quota: the next one may take it.
      if (error instanceof AppError && ['not_found', 'limit_exceeded', 'forbidden'].includes(error.code)) continue;
      throw error;
    }
  }
  return false;
}
