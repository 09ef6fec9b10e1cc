/** PollService: actor commands poll.*, one row each. */
import type { Handlers } from '../service-table.js';
import type { PollServiceHandlers } from '../gen/svc/v1/PollService.js';
import type { RoomCalls } from '../room-calls.js';
import { poll } from '../views.js';
import type { Poll } from '../../../contracts/room/model.js';

const answer = (result: { poll: Poll }) => ({ poll: poll(result.poll) });

export function pollService(rooms: RoomCalls): Handlers<PollServiceHandlers> {
  return {
    Open: rooms.command('poll.open', (request) => ({ question: request.question, options: request.options, durationMs: request.durationMs }), answer),
    Vote: rooms.command('poll.vote', (request) => ({ pollId: request.pollId, choice: request.choice }), answer),
    Close: rooms.command('poll.close', (request) => ({ pollId: request.pollId }), answer),
  };
}
