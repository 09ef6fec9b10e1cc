/** The poll endpoints of contracts/http/polls.ts: one room command each. */
import * as api from '../../../contracts/http/polls.js';
import { roomCommand, type RoomRoute } from '../room-command-route.js';

const answer = (result: { poll: unknown }, seq: number) => ({ poll: result.poll, seq });

export const POLL_ROUTES: readonly RoomRoute[] = [
  roomCommand(api.openPoll, 'poll.open', { command: ({ body }) => body, answer, status: 201 }),
  roomCommand(api.votePoll, 'poll.vote', { command: ({ params, body }) => ({ pollId: params.pollId, choice: body.choice }), answer }),
  roomCommand(api.closePoll, 'poll.close', { command: ({ params }) => ({ pollId: params.pollId }), answer }),
];
