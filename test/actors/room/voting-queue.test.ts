/**
 * The voting queue mode (docs/2026-11-26-votes-and-polls.md): members up-vote playlist items;
 * at the end of an item (or a skip) the most up-voted other item plays (ties: playlist order;
 * no votes: as `next`), and its votes are cleared. Votes are stored.
 */
import test from 'ava';
import type { Caller } from '../../../actors/runtime/actor-type.js';
import type { PlaybackView, QueueVotes } from '../../../contracts/room/model.js';
import { followingItem } from '../../../actors/room/playback/queue.js';
import { RoomTestBed, addMember, guest, media, rejects, uid, user } from './fixtures.js';
import type { TestRoom } from './fixtures.js';

let bed: RoomTestBed;

test.before(async () => {
  bed = await RoomTestBed.start('room_voting_queue');
});

test.after.always(async () => {
  await bed?.close();
});

async function party(): Promise<{ room: TestRoom; owner: Caller; bob: Caller; carol: Caller; ids: string[] }> {
  const owner = user(uid('owner'));
  const bob = user(uid('bob'));
  const carol = user(uid('carol'));
  const room = await bed.activate(uid('room'));
  await room.send(owner, { kind: 'room.create', name: 'Queue', visibility: 'public', settings: { queueMode: 'vote', voteSkipPercent: 1 } });
  const ids: string[] = [];
  for (const title of ['A', 'B', 'C', 'D']) ids.push((await room.send(owner, { kind: 'playlist.push', ...media(title) })).item.id);
  for (const caller of [bob, carol]) await addMember(room, caller);
  for (const caller of [owner, bob, carol]) await room.send(caller, { kind: 'presence.enter', connectionId: `${caller.userId}-c` });
  return { room, owner, bob, carol, ids };
}

const upvote = (room: TestRoom, caller: Caller, mediaId: string, vote = true) => room.send(caller, { kind: 'playlist.vote', mediaId, vote });
/** Skips the current item (vote-skip at 1 %: one vote does it). */
const skip = async (room: TestRoom, caller: Caller): Promise<PlaybackView> => {
  const view = (await room.send(caller, { kind: 'room.get' })) as { playback: PlaybackView };
  return (await room.send(caller, { kind: 'playback.voteSkip', mediaId: view.playback.mediaId as string, vote: true })).playback;
};
const votesOf = async (room: TestRoom, caller: Caller) => ((await room.send(caller, { kind: 'room.get' })) as { queueVotes?: QueueVotes[] }).queueVotes;

test('the most up-voted item plays next and its votes are cleared; without votes the list goes on in order', async (t) => {
  const { room, owner, bob, carol, ids } = await party();
  const [, , c, d] = ids as [string, string, string, string];
  t.like(await upvote(room, bob, d), { queueVotes: { mediaId: d, votes: 1, voters: [bob.userId] } });
  await upvote(room, carol, d);
  await upvote(room, carol, c);
  t.like(room.lastEvent('queue.votes'), { queueVotes: { mediaId: c, votes: 1 } });
  t.deepEqual((await votesOf(room, owner))?.map((v) => [v.mediaId, v.votes]), [[c, 1], [d, 2]]);

  t.is((await skip(room, owner)).mediaId, d, 'D has the most votes');
  t.like(room.lastEvent('queue.votes'), { queueVotes: { mediaId: d, votes: 0 } });
  t.deepEqual((await votesOf(room, owner))?.map((v) => v.mediaId), [c], "D's votes are spent");
  t.is((await skip(room, owner)).mediaId, c);
  t.is((await skip(room, owner)).mediaId, d, 'no votes left: the next in the list, as next');
});

test('ties go by playlist order; a vote can be taken back; votes are kept across activations', async (t) => {
  const { room, owner, bob, ids } = await party();
  const [, b, c, d] = ids as [string, string, string, string];
  await upvote(room, bob, d);
  await upvote(room, bob, b);
  await upvote(room, owner, c);
  await upvote(room, owner, c, false);
  room.abandon();
  const again = await bed.activate(room.id);
  t.deepEqual((await votesOf(again, owner))?.map((v) => v.mediaId), [b, d]);
  await again.send(owner, { kind: 'presence.enter', connectionId: 'owner-again' });
  t.is((await skip(again, owner)).mediaId, b, 'B and D tie: B comes first in the list');
});

test('followingItem in vote mode never picks the current item and falls back to next', (t) => {
  const playlist = ['a', 'b', 'c'].map((id) => ({ item: { id } })) as unknown as Parameters<typeof followingItem>[1];
  const counts: Record<string, number> = { a: 5, c: 1 };
  t.is(followingItem('vote', playlist, 'a', Math.random, (id) => counts[id] ?? 0)?.id, 'c');
  t.is(followingItem('vote', playlist, 'b', Math.random, () => 0)?.id, 'c');
  t.is(followingItem('vote', playlist, 'c', Math.random, () => 0), null, 'after the last, with no votes, the room stops');
});

test('up-votes need the voting mode, an item of the playlist, and the vote permission', async (t) => {
  const { room, owner, ids } = await party();
  const gus = guest(uid('gus'));
  await addMember(room, gus);
  await rejects(t, upvote(room, gus, ids[1]!), 'forbidden', /up-voting playlist items needs the vote permission/);
  await rejects(t, upvote(room, owner, 'nope'), 'not_found', /media nope is not in this room's playlist/);
  await room.send(owner, { kind: 'room.update', queueMode: 'next' });
  await rejects(t, upvote(room, owner, ids[1]!), 'conflict', /only in the voting queue mode \(queueMode is next\)/);
  t.is(await votesOf(room, owner), undefined, 'no up-votes in the view outside the voting mode');
});
