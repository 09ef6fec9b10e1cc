/**
 * A closing account's records in rooms it has left (or never joined: a ban, a vote in a room it
 * has since left), forgotten through each room's actor with `member.forget`
 * (actors/room/members/forget-member.ts): polls, up-votes and bans live in the actors' memory
 * and are written with their fences, so the closing transaction must not change them itself.
 * Runs after leaveEveryRoom and before the account's own rows go: a room that cannot be
 * reached fails the close with the account whole, and a repeat finds what is left.
 */
import type pg from 'pg';
import { AppError } from '../../errors/index.js';
import type { RoomClient } from './room-client.js';

/** Every room holding a poll vote, a poll, an up-vote, a ban or a room library of `userId`. */
const ROOMS_HOLDING = `
  SELECT p.room_id FROM room_poll_votes v JOIN room_polls p ON p.id = v.poll_id WHERE v.user_id = $1
  UNION SELECT room_id FROM room_polls WHERE created_by = $1
  UNION SELECT room_id FROM room_queue_votes WHERE user_id = $1
  UNION SELECT room_id FROM room_members WHERE user_id = $1 AND status = 'banned'
  UNION SELECT owner_room_id FROM media_libraries WHERE created_by = $1 AND owner_room_id IS NOT NULL`;

/** The number of rooms told. */
export async function forgetInRooms(pool: pg.Pool, rooms: RoomClient, userId: string): Promise<number> {
  const { rows } = await pool.query<{ room_id: string }>(ROOMS_HOLDING, [userId]);
  let told = 0;
  for (const { room_id: roomId } of rows) {
    try {
      await rooms.sendAsService(roomId, { kind: 'member.forget', userId }, 'close-account');
      told += 1;
    } catch (error) {
      // Deleted since the read: its rows went with it.
      if (error instanceof AppError && error.code === 'not_found') continue;
      throw error;
    }
  }
  return told;
}
