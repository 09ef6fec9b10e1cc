/**
 * Vote-skip (docs/2026-11-26-votes-and-polls.md): members holding `vote` vote to skip the
 * current item; at the room's share of present voters the room moves on by its queue mode.
 */
import test from 'ava';
import type { Caller } from '../../../actors/runtime/actor-type.js';
import type { QueueMode } from '../../../contracts/room/model.js';
import { votesNeeded } from '../../../actors/room/vote-skip/vote-skip.js';
import { skipTarget } from '../../../actors/room/playback/queue.js';
import { RoomTestBed, addMember, guest, media, rejects, uid, user } from './fixtures.js';
import type { TestRoom } from './fixtures.js';

let bed: RoomTestBed;

test.before(async () => {
  bed = await RoomTestBed.start('room_vote_skip');
});

test.after.always(async () => {
  await bed?.close();
});

interface Party {
  room: TestRoom;
  owner: Caller;
  bob: Caller;
  carol: Caller;
  ids: string[];
}

/** Owner, Bob and Carol present in a room at `percent`, playing the first of A, B, C. */
async function party(percent: number, queueMode: QueueMode = 'next', titles = ['A', 'B', 'C']): Promise<Party> {
  const owner = user(uid('owner'));
  const bob = user(uid('bob'));
  const carol = user(uid('carol'));
  const room = await bed.activate(uid('room'));
  await room.send(owner, { kind: 'room.create', name: 'Votes', visibility: 'public', settings: { voteSkipPercent: percent, queueMode } });
  const ids: string[] = [];
  for (const title of titles) ids.push((await room.send(owner, { kind: 'playlist.push', ...media(title) })).item.id);
  for (const caller of [bob, carol]) await addMember(room, caller);
  for (const caller of [owner, bob, carol]) await room.send(caller, { kind: 'presence.enter', connectionId: `${caller.userId}-c` });
  await room.send(owner, { kind: 'playback.play' });
  return { room, owner, bob, carol, ids };
}

const vote = (room: TestRoom, caller: Caller, mediaId: string, yes = true) => room.send(caller, { kind: 'playback.voteSkip', mediaId, vote: yes });

test('votesNeeded is the share of present voters, rounded up, at least one', (t) => {
  t.is(votesNeeded(3, 50), 2);
  t.is(votesNeeded(4, 50), 2);
  t.is(votesNeeded(3, 100), 3);
  t.is(votesNeeded(10, 1), 1);
  t.is(votesNeeded(0, 50), 1);
});

test('at the threshold the room skips to the next item and tells everyone the count on the way', async (t) => {
  const { room, owner, bob, carol, ids } = await party(50);
  const first = await vote(room, bob, ids[0]!);
  t.like(first, { skipped: false, voteSkip: { mediaId: ids[0], votes: 1, needed: 2, voters: [bob.userId] } });
  t.like(room.lastEvent('vote.skip'), { voteSkip: { votes: 1, needed: 2 } });
  const view = await room.send(owner, { kind: 'room.get' });
  t.like(view, { voteSkip: { mediaId: ids[0], votes: 1, needed: 2 } });

  const second = await vote(room, carol, ids[0]!);
  t.true(second.skipped);
  t.is(second.playback.mediaId, ids[1]!);
  t.like(room.lastEvent('playback'), { cause: 'playback.voteSkip', by: carol.userId, playback: { mediaId: ids[1], playing: true } });
  t.like(room.lastEvent('vote.skip'), { voteSkip: { mediaId: ids[0], votes: 2, needed: 2 } });
  t.like(await room.send(owner, { kind: 'room.get' }), { voteSkip: { mediaId: ids[1], votes: 0, voters: [] } }, 'votes reset with the new item');
});

test('one vote per member per item: voting twice counts once, and a vote can be taken back', async (t) => {
  const { room, bob, ids } = await party(100);
  await vote(room, bob, ids[0]!);
  t.like(await vote(room, bob, ids[0]!), { skipped: false, voteSkip: { votes: 1, needed: 3 } });
  t.like(await vote(room, bob, ids[0]!, false), { skipped: false, voteSkip: { votes: 0, voters: [] } });
  t.like(room.lastEvent('vote.skip'), { voteSkip: { votes: 0 } });
});

test('votes reset when the item changes by other means', async (t) => {
  const { room, owner, bob, ids } = await party(100);
  await vote(room, bob, ids[0]!);
  await room.send(owner, { kind: 'playback.next' });
  t.like(await room.send(owner, { kind: 'room.get' }), { voteSkip: { mediaId: ids[1], votes: 0 } });
  await rejects(t, vote(room, bob, ids[0]!), 'conflict', new RegExp(`mediaId ${ids[0]} is not playing`));
});

test('only present members count: the threshold follows who is there', async (t) => {
  const { room, owner, bob, carol, ids } = await party(100);
  await vote(room, bob, ids[0]!);
  await vote(room, owner, ids[0]!);
  await room.send(carol, { kind: 'presence.leave', connectionId: `${carol.userId}-c` });
  // Carol left: 2 present voters, 2 votes; the next vote (a repeat) finds the threshold met.
  t.like(await room.send(owner, { kind: 'room.get' }), { voteSkip: { votes: 2, needed: 2 } });
  t.like(room.lastEvent('vote.skip'), { voteSkip: { votes: 2, needed: 2 } }, 'everyone is told the new threshold');
  await rejects(t, vote(room, carol, ids[0]!), 'conflict', /connect to the room/);
  t.true((await vote(room, bob, ids[0]!)).skipped);
});

test('a voter who is kicked, banned or leaves stops counting: everyone is told the new count and threshold', async (t) => {
  for (const how of ['kick', 'ban', 'leave'] as const) {
    const { room, owner, bob, ids } = await party(50);
    await vote(room, bob, ids[0]!);
    t.like(room.lastEvent('vote.skip'), { voteSkip: { votes: 1, needed: 2, voters: [bob.userId] } });
    const before = room.events('vote.skip').length;
    if (how === 'kick') await room.send(owner, { kind: 'member.kick', userId: bob.userId });
    else if (how === 'ban') await room.send(owner, { kind: 'member.ban', userId: bob.userId });
    else await room.send(bob, { kind: 'member.leave' });
    // Owner and Carol are left: 2 present voters at 50% need 1 vote, and Bob's no longer counts.
    t.is(room.events('vote.skip').length, before + 1, `${how}: the count is published once`);
    t.like(room.lastEvent('vote.skip'), { voteSkip: { mediaId: ids[0], votes: 0, needed: 1, voters: [] } }, `${how}: the published count drops`);
    t.like(await room.send(owner, { kind: 'room.get' }), { voteSkip: { votes: 0, needed: 1 } });
  }
});

test('the skip follows the queue mode, but never replays the skipped item', async (t) => {
  for (const mode of ['stop', 'repeat_one'] as const) {
    const { room, owner, bob, ids } = await party(50, mode);
    await vote(room, owner, ids[0]!);
    const result = await vote(room, bob, ids[0]!);
    t.is(result.playback.mediaId, ids[1]!, `${mode} skips to the next item`);
  }
  const last = await party(50, 'next', ['Only']);
  await vote(last.room, last.owner, last.ids[0]!);
  const result = await vote(last.room, last.bob, last.ids[0]!);
  t.like(result, { skipped: true, playback: { mediaId: last.ids[0], playing: false } }, 'nothing after it: the room pauses');

  const playlist = ['a', 'b'].map((id) => ({ item: { id } })) as unknown as Parameters<typeof skipTarget>[1];
  t.is(skipTarget('repeat_all', playlist, 'b')?.id, 'a');
  t.is(skipTarget('shuffle', playlist, 'a')?.id, 'b');
  t.is(skipTarget('shuffle', playlist.slice(0, 1), 'a'), null);
});

test('vote-skip off, or without the vote permission, is refused naming why', async (t) => {
  const off = await party(0);
  await rejects(t, vote(off.room, off.bob, off.ids[0]!), 'conflict', /vote-skip is off in this room \(voteSkipPercent is 0\)/);
  t.is((await off.room.send(off.owner, { kind: 'room.get' }) as { voteSkip?: unknown }).voteSkip, undefined);

  const { room, owner, ids } = await party(50);
  const gus = guest(uid('gus'));
  await addMember(room, gus);
  await room.send(gus, { kind: 'presence.enter', connectionId: 'gus-c' });
  await rejects(t, vote(room, gus, ids[0]!), 'forbidden', /voting to skip needs the vote permission/);
  await room.send(owner, { kind: 'room.update', permissionOverrides: { member: ['view_member_list'] } });
  const bob = (await room.send(owner, { kind: 'room.get' }) as { members: Array<{ userId: string; isOwner: boolean }> }).members.find((m) => !m.isOwner)!;
  await rejects(t, vote(room, user(bob.userId), ids[0]!), 'forbidden', /needs the vote permission/);
});

test('the threshold is a room setting changed with room.update and kept across activations', async (t) => {
  const { room, owner } = await party(0);
  const updated = await room.send(owner, { kind: 'room.update', voteSkipPercent: 75 });
  t.is(updated.room.voteSkipPercent, 75);
  t.like(room.lastEvent('vote.skip'), { voteSkip: { votes: 0, needed: 3 } }, 'turned on, everyone is told the count');
  await rejects(t, room.send(owner, { kind: 'room.update', voteSkipPercent: 101 } as never), 'invalid_argument');
  room.abandon();
  const again = await bed.activate(room.id);
  t.like(await again.send(owner, { kind: 'room.get' }), { room: { voteSkipPercent: 75 } });
});
