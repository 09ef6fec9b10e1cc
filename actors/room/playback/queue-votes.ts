/**
 * Up-votes on playlist items for the voting queue mode (docs/2026-11-26-votes-and-polls.md):
 * when the current item ends or is skipped, the most up-voted other item plays (ties: playlist
 * order; no votes at all: as `next`), and its votes are cleared. Stored (migration 0015) and
 * held in memory by item.
 */
import type pg from 'pg';
import { FORMER_MEMBER_ID_PREFIX } from '../../../contracts/room/former-member.js';
import type { QueueVotes } from '../../../contracts/room/model.js';
import { StateSlice } from '../core.js';
import type { PlaylistEntry } from '../records.js';

type Db = Pick<pg.PoolClient, 'query'>;

/** The activation's up-votes, loaded with the room. */
export const QUEUE_VOTES = new StateSlice('queue votes', () => new QueueVoteBook());

export class QueueVoteBook {
  private readonly byItem = new Map<string, Set<string>>();

  restore(rows: Array<{ mediaId: string; userId: string }>): void {
    this.byItem.clear();
    for (const row of rows) this.set(row.mediaId, row.userId, true);
  }

  set(mediaId: string, userId: string, vote: boolean): void {
    const voters = this.byItem.get(mediaId) ?? new Set<string>();
    if (vote) voters.add(userId);
    else voters.delete(userId);
    if (voters.size === 0) this.byItem.delete(mediaId);
    else this.byItem.set(mediaId, voters);
  }

  has(mediaId: string, userId: string): boolean {
    return this.byItem.get(mediaId)?.has(userId) ?? false;
  }

  clearItem(mediaId: string): void {
    this.byItem.delete(mediaId);
  }

  clear(): void {
    this.byItem.clear();
  }

  count(mediaId: string): number {
    return this.byItem.get(mediaId)?.size ?? 0;
  }

  view(mediaId: string): QueueVotes {
    const voters = [...(this.byItem.get(mediaId) ?? [])];
    return { mediaId, votes: voters.length, voters };
  }

  /** Items of `playlist` with votes, in playlist order. */
  views(playlist: readonly PlaylistEntry[]): QueueVotes[] {
    return playlist.filter((entry) => this.count(entry.item.id) > 0).map((entry) => this.view(entry.item.id));
  }
}

/** The most up-voted item other than `currentId` (ties: playlist order), or undefined when none has votes. */
export function mostVoted(playlist: readonly PlaylistEntry[], currentId: string, count: (mediaId: string) => number): PlaylistEntry | undefined {
  let best: PlaylistEntry | undefined;
  for (const entry of playlist) {
    if (entry.item.id === currentId) continue;
    if (count(entry.item.id) > (best ? count(best.item.id) : 0)) best = entry;
  }
  return best;
}

export async function loadQueueVotes(db: Db, roomId: string): Promise<Array<{ mediaId: string; userId: string }>> {
  const { rows } = await db.query<{ media_id: string; user_id: string }>('SELECT media_id, user_id FROM room_queue_votes WHERE room_id = $1', [roomId]);
  return rows.map((row) => ({ mediaId: row.media_id, userId: row.user_id }));
}

export async function saveQueueVote(db: Db, roomId: string, mediaId: string, userId: string, vote: boolean): Promise<void> {
  if (vote) {
    await db.query('INSERT INTO room_queue_votes (room_id, media_id, user_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING', [roomId, mediaId, userId]);
  } else {
    await db.query('DELETE FROM room_queue_votes WHERE room_id = $1 AND media_id = $2 AND user_id = $3', [roomId, mediaId, userId]);
  }
}

export async function clearQueueVotes(db: Db, roomId: string, mediaId: string): Promise<void> {
  await db.query('DELETE FROM room_queue_votes WHERE room_id = $1 AND media_id = $2', [roomId, mediaId]);
}

/** A closed account's up-votes, each under a new id (they keep counting): the new ids by item (members/forget-member.ts). */
export async function anonymiseQueueVotes(db: Db, roomId: string, userId: string): Promise<Array<{ mediaId: string; voterId: string }>> {
  const { rows } = await db.query<{ media_id: string; user_id: string }>(
    `UPDATE room_queue_votes SET user_id = $3::text || gen_random_uuid()::text WHERE room_id = $1 AND user_id = $2 RETURNING media_id, user_id`,
    [roomId, userId, FORMER_MEMBER_ID_PREFIX],
  );
  return rows.map((row) => ({ mediaId: row.media_id, voterId: row.user_id }));
}
