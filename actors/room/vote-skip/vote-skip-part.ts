/**
 * The vote-skip part (docs/2026-11-26-votes-and-polls.md): the votes on the current item (in
 * memory), `playback.voteSkip`, the count in views, and the count told again to everyone
 * whenever it can change without a vote: someone present came or went (left, kicked, banned),
 * a member's or the room's permissions changed, or the room's threshold did.
 */
import type { RoomRecord } from '../records.js';
import { roomPart } from '../part.js';
import { voteSkip } from './vote-skip-handlers.js';
import { SKIP_VOTES, publishVoteSkip, voteSkipField } from './vote-skip.js';

/** Whether a room change can move the count: the threshold, the overrides giving or taking `vote`, the owner (who always votes). */
function countMayChange(before: RoomRecord, after: RoomRecord): boolean {
  return (
    before.options.voteSkipPercent !== after.options.voteSkipPercent ||
    before.ownerId !== after.ownerId ||
    JSON.stringify(before.options.permissionOverrides) !== JSON.stringify(after.options.permissionOverrides)
  );
}

export const voteSkipPart = roomPart({
  name: 'vote-skip',
  state: [SKIP_VOTES],
  handlers: { 'playback.voteSkip': voteSkip },
  view: (core) => voteSkipField(core),
  presenceChanged: (core, _userId, change) => {
    if (change !== 'connection') publishVoteSkip(core);
  },
  memberRemoved: (core, _userId, { wasOnline }) => {
    // Only someone present counted.
    if (wasOnline) publishVoteSkip(core);
  },
  memberChanged: (core) => publishVoteSkip(core),
  roomChanged: (core, before) => {
    if (countMayChange(before, core.current)) publishVoteSkip(core);
  },
  // The votes belong to the item they were cast on.
  currentChanged: (core) => SKIP_VOTES.of(core).clear(),
  deleted: (core) => SKIP_VOTES.of(core).clear(),
  // A skip vote is memory only: it is dropped, it counted only while its voter was present anyway.
  forgetting: (core, _client, userId) => Promise.resolve({ apply: () => SKIP_VOTES.of(core).forget(userId) }),
});
