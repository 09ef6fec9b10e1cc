/**
 * Polls (docs/2026-11-26-votes-and-polls.md): someone holding create_poll asks a question
 * with 2..10 answers, optionally on a timer; members holding vote choose one (and may change
 * it) until it closes, by its timer (the activation's `poll` timer) or by its author or an
 * admin. Every change is written (fenced) before it is applied and published as a `poll` event
 * with the counts.
 */
import { AppError, type FieldIssue } from '../../../errors/index.js';
import type { RoomCommandOf } from '../../../contracts/room/commands.js';
import { ROOM_LIMITS } from '../../../contracts/room/limits.js';
import type { RoomResults } from '../../../contracts/room/results.js';
import type { RoomCore, Turn } from '../core.js';
import { checkLabel } from '../validate.js';
import { closePoll, insertPoll, saveVote } from './poll-store.js';
import { POLLS, pollView, type StoredPoll } from './polls.js';

function findPoll(core: RoomCore, pollId: string): StoredPoll {
  const poll = POLLS.of(core).get(pollId);
  if (!poll) throw new AppError('not_found', `poll ${pollId} is not in this room`);
  return poll;
}

/** Schedules the open poll's timer (also after an activation that found one open). */
export function schedulePollTimer(core: RoomCore): void {
  const open = POLLS.of(core).open();
  if (open?.closesAt == null) {
    core.timers.cancel('poll');
    return;
  }
  core.timers.schedule('poll', Math.max(0, open.closesAt - core.now()));
}

export async function openPoll(core: RoomCore, command: RoomCommandOf<'poll.open'>, turn: Turn): Promise<RoomResults['poll.open']> {
  const { access } = turn;
  core.require(access, 'create_poll', 'opening a poll');
  const issues: FieldIssue[] = [];
  const question = checkLabel(command.question, 'question', ROOM_LIMITS.pollQuestionMaxChars, issues);
  const options = command.options.map((option, index) => checkLabel(option, `options.${index}`, ROOM_LIMITS.pollOptionMaxChars, issues));
  if (issues.length > 0) throw AppError.invalid(issues);
  const open = POLLS.of(core).open();
  if (open) throw new AppError('conflict', `poll ${open.id} ("${open.question}") is still open: close it first`);
  const poll: Omit<StoredPoll, 'id' | 'votes'> = {
    question,
    options,
    createdBy: access.userId,
    createdAt: turn.now,
    closesAt: command.durationMs === undefined ? null : turn.now + command.durationMs,
    closedAt: null,
  };
  const id = await core.commit(turn, 'open the poll', (client) => insertPoll(client, core.id, poll));
  const stored: StoredPoll = { ...poll, id, votes: new Map() };
  POLLS.of(core).add(stored);
  schedulePollTimer(core);
  core.publish({ type: 'poll', poll: pollView(stored) });
  return { poll: pollView(stored, access.userId) };
}

export async function votePoll(core: RoomCore, command: RoomCommandOf<'poll.vote'>, turn: Turn): Promise<RoomResults['poll.vote']> {
  const { access } = turn;
  core.require(access, 'vote', 'voting in a poll');
  const poll = findPoll(core, command.pollId);
  if (poll.closedAt !== null) throw new AppError('conflict', `poll ${poll.id} is closed`);
  if (command.choice >= poll.options.length) {
    throw AppError.invalid([{ key: 'choice', message: `must be an option of the poll: 0..${poll.options.length - 1}` }]);
  }
  if (poll.votes.get(access.userId) !== command.choice) {
    await core.commit(turn, 'record the vote', (client) => saveVote(client, poll.id, access.userId, command.choice));
    poll.votes.set(access.userId, command.choice);
    core.publish({ type: 'poll', poll: pollView(poll) });
  }
  return { poll: pollView(poll, access.userId) };
}

async function close(core: RoomCore, poll: StoredPoll, now: number, write: (what: string, fn: Parameters<RoomCore['durable']>[1]) => Promise<unknown>): Promise<void> {
  await write('close the poll', (client) => closePoll(client, core.id, poll.id, now, ROOM_LIMITS.pollsKept));
  POLLS.of(core).close(poll, now);
  schedulePollTimer(core);
  core.publish({ type: 'poll', poll: pollView(poll) });
}

export async function closePollCommand(core: RoomCore, command: RoomCommandOf<'poll.close'>, turn: Turn): Promise<RoomResults['poll.close']> {
  const { access } = turn;
  const poll = findPoll(core, command.pollId);
  if (poll.createdBy !== access.userId && access.role !== 'admin' && !access.service) {
    throw new AppError('forbidden', 'only the poll\'s author or a room admin can close it');
  }
  if (poll.closedAt === null) await close(core, poll, turn.now, (what, fn) => core.commit(turn, what, fn));
  return { poll: pollView(poll, access.userId) };
}

/** The open poll's timer ran out. */
export async function onPollTimer(core: RoomCore): Promise<void> {
  const open = POLLS.of(core).open();
  if (!open || open.closesAt === null) return;
  const now = core.now();
  // A timer delivered early (clock skew between scheduling and now) waits for the rest.
  if (now < open.closesAt) return schedulePollTimer(core);
  await close(core, open, open.closesAt, (what, fn) => core.durable(what, fn));
}
