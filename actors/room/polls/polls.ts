/**
 * A room's polls as the activation holds them: at most one open, and the newest closed ones
 * (ROOM_LIMITS.pollsKept). Views count the votes per option; who chose what stays in the room
 * (each member sees only their own choice).
 */
import { ROOM_LIMITS } from '../../../contracts/room/limits.js';
import type { Poll } from '../../../contracts/room/model.js';
import { StateSlice } from '../core.js';

/** The room's polls, loaded with the room. */
export const POLLS = new StateSlice('polls', () => new RoomPolls());

export interface StoredPoll {
  id: string;
  question: string;
  options: string[];
  createdBy: string;
  createdAt: number;
  closesAt: number | null;
  closedAt: number | null;
  /** user id -> index into options */
  votes: Map<string, number>;
}

export class RoomPolls {
  /** Newest first. */
  private list: StoredPoll[] = [];

  restore(polls: StoredPoll[]): void {
    this.list = polls;
  }

  clear(): void {
    this.list = [];
  }

  open(): StoredPoll | undefined {
    return this.list.find((poll) => poll.closedAt === null);
  }

  /** Every poll held, newest first. */
  all(): readonly StoredPoll[] {
    return this.list;
  }

  get(id: string): StoredPoll | undefined {
    return this.list.find((poll) => poll.id === id);
  }

  add(poll: StoredPoll): void {
    this.list.unshift(poll);
  }

  /** Marks `poll` closed and forgets closed polls beyond the kept number, as the store does. */
  close(poll: StoredPoll, at: number): void {
    poll.closedAt = at;
    let closed = 0;
    this.list = this.list.filter((entry) => entry.closedAt === null || ++closed <= ROOM_LIMITS.pollsKept);
  }

  /** The open poll first, then closed ones, newest first; with `userId`'s own choice. */
  views(userId: string | null): Poll[] {
    const open = this.open();
    const ordered = open ? [open, ...this.list.filter((poll) => poll !== open)] : this.list;
    return ordered.map((poll) => pollView(poll, userId));
  }
}

export function pollView(poll: StoredPoll, userId: string | null = null): Poll {
  const counts = poll.options.map(() => 0);
  for (const choice of poll.votes.values()) if (choice < counts.length) counts[choice] = (counts[choice] ?? 0) + 1;
  const mine = userId === null ? undefined : poll.votes.get(userId);
  return {
    id: poll.id,
    question: poll.question,
    options: [...poll.options],
    counts,
    createdBy: poll.createdBy,
    createdAt: poll.createdAt,
    closesAt: poll.closesAt,
    closedAt: poll.closedAt,
    ...(mine !== undefined ? { myChoice: mine } : {}),
  };
}
