/**
 * Polls (docs/2026-11-26-votes-and-polls.md): opened with create_poll, voted with vote (one
 * choice, changeable), closed by the timer or by the author or an admin, kept across
 * activations with their votes, and bounded in number.
 */
import test from 'ava';
import type { Caller } from '../../../actors/runtime/actor-type.js';
import { ROOM_LIMITS } from '../../../contracts/room/limits.js';
import type { Poll } from '../../../contracts/room/model.js';
import { RoomTestBed, TestClock, addMember, guest, rejects, uid, user } from './fixtures.js';
import type { TestRoom } from './fixtures.js';

let bed: RoomTestBed;

test.before(async () => {
  bed = await RoomTestBed.start('room_polls');
});

test.after.always(async () => {
  await bed?.close();
});

interface Party {
  room: TestRoom;
  clock: TestClock;
  owner: Caller;
  bob: Caller;
  carol: Caller;
}

async function party(): Promise<Party> {
  const clock = new TestClock();
  const owner = user(uid('owner'));
  const bob = user(uid('bob'));
  const carol = user(uid('carol'));
  const room = await bed.activate(uid('room'), { clock });
  await room.send(owner, { kind: 'room.create', name: 'Polls', visibility: 'public' });
  for (const caller of [bob, carol]) await addMember(room, caller);
  return { room, clock, owner, bob, carol };
}

const ask = (room: TestRoom, caller: Caller, extra: { durationMs?: number } = {}) =>
  room.send(caller, { kind: 'poll.open', question: ' What next? ', options: ['Film', 'Series', 'Sleep'], ...extra });
const polls = async (room: TestRoom, caller: Caller) => ((await room.send(caller, { kind: 'room.get' })) as { polls: Poll[] }).polls;

test('a poll opens, counts one changeable choice per member live, and closes by its author', async (t) => {
  const { room, owner, bob, carol } = await party();
  const { poll } = await ask(room, owner);
  t.like(poll, { question: 'What next?', options: ['Film', 'Series', 'Sleep'], counts: [0, 0, 0], createdBy: owner.userId, closesAt: null, closedAt: null });
  t.like(room.lastEvent('poll'), { poll: { id: poll.id, counts: [0, 0, 0] } });

  t.like((await room.send(bob, { kind: 'poll.vote', pollId: poll.id, choice: 0 })).poll, { counts: [1, 0, 0], myChoice: 0 });
  await room.send(carol, { kind: 'poll.vote', pollId: poll.id, choice: 1 });
  t.like(room.lastEvent('poll'), { poll: { counts: [1, 1, 0] } });
  t.false('myChoice' in (room.lastEvent('poll')?.poll ?? {}), 'events never say who chose what');
  t.like((await room.send(bob, { kind: 'poll.vote', pollId: poll.id, choice: 1 })).poll, { counts: [0, 2, 0], myChoice: 1 }, 'a second vote changes the first');
  t.like((await polls(room, carol))[0], { id: poll.id, counts: [0, 2, 0], myChoice: 1 });

  await rejects(t, room.send(bob, { kind: 'poll.close', pollId: poll.id }), 'forbidden', /only the poll's author or a room admin/);
  const closed = (await room.send(owner, { kind: 'poll.close', pollId: poll.id })).poll;
  t.not(closed.closedAt, null);
  t.like(room.lastEvent('poll'), { poll: { id: poll.id, counts: [0, 2, 0] } });
  await rejects(t, room.send(carol, { kind: 'poll.vote', pollId: poll.id, choice: 0 }), 'conflict', new RegExp(`poll ${poll.id} is closed`));
});

test('the timer closes a poll, and an open poll with its votes and timer survives a new activation', async (t) => {
  const { room, clock, owner, bob } = await party();
  const { poll } = await ask(room, owner, { durationMs: 60_000 });
  t.is(poll.closesAt, clock.ms + 60_000);
  await room.send(bob, { kind: 'poll.vote', pollId: poll.id, choice: 2 });

  room.abandon();
  const again = await bed.activate(room.id, { clock });
  t.like((await polls(again, bob))[0], { id: poll.id, counts: [0, 0, 1], myChoice: 2, closedAt: null });
  clock.advance(60_000);
  await again.fire('poll');
  const [closed] = await polls(again, owner);
  t.is(closed?.closedAt, poll.closesAt);
  t.like(again.lastEvent('poll'), { poll: { id: poll.id, closedAt: poll.closesAt } });
});

test('one poll at a time; bad input is refused by field and writes nothing', async (t) => {
  const { room, owner } = await party();
  const first = (await ask(room, owner)).poll;
  await rejects(t, ask(room, owner), 'conflict', new RegExp(`poll ${first.id} \\("What next\\?"\\) is still open`));
  await room.send(owner, { kind: 'poll.close', pollId: first.id });
  const blank = await rejects(t, room.send(owner, { kind: 'poll.open', question: 'Q', options: ['A', '  '] }), 'invalid_argument');
  t.is(blank.issues?.[0]?.key, 'options.1');
  await rejects(t, room.send(owner, { kind: 'poll.open', question: 'Q', options: ['A'] }), 'invalid_argument');
  await rejects(t, room.send(owner, { kind: 'poll.open', question: 'Q', options: ['A', 'B'], durationMs: ROOM_LIMITS.pollDurationMaxMs + 1 }), 'invalid_argument');
  t.is((await polls(room, owner)).length, 1, 'nothing was opened');
  const second = (await room.send(owner, { kind: 'poll.open', question: 'Q', options: ['A', 'B'] })).poll;
  const outOfRange = await rejects(t, room.send(owner, { kind: 'poll.vote', pollId: second.id, choice: 2 }), 'invalid_argument', /0\.\.1/);
  t.is(outOfRange.issues?.[0]?.key, 'choice');
  await rejects(t, room.send(owner, { kind: 'poll.vote', pollId: '999999999', choice: 0 }), 'not_found', /poll 999999999 is not in this room/);
});

test('permissions: members vote but do not open polls by default; guests do neither', async (t) => {
  const { room, owner, bob } = await party();
  await rejects(t, ask(room, bob), 'forbidden', /opening a poll needs the create_poll permission/);
  const gus = guest(uid('gus'));
  await addMember(room, gus);
  const { poll } = await ask(room, owner);
  await rejects(t, room.send(gus, { kind: 'poll.vote', pollId: poll.id, choice: 0 }), 'forbidden', /voting in a poll needs the vote permission/);
  await room.send(owner, { kind: 'room.update', permissionOverrides: { member: ['vote', 'create_poll'] } });
  await room.send(owner, { kind: 'poll.close', pollId: poll.id });
  const own = (await ask(room, bob)).poll;
  t.like((await room.send(bob, { kind: 'poll.close', pollId: own.id })).poll, { id: own.id }, 'authors close their own polls');
});

test(`closed polls beyond ${ROOM_LIMITS.pollsKept} are dropped, oldest first, in memory and in the store`, async (t) => {
  const { room, owner } = await party();
  const ids: string[] = [];
  for (let i = 0; i < ROOM_LIMITS.pollsKept + 2; i += 1) {
    const { poll } = await room.send(owner, { kind: 'poll.open', question: `Q${i}`, options: ['A', 'B'] });
    await room.send(owner, { kind: 'poll.close', pollId: poll.id });
    ids.push(poll.id);
  }
  const kept = (await polls(room, owner)).map((poll) => poll.id);
  t.deepEqual(kept, ids.slice(2).reverse());
  room.abandon();
  const again = await bed.activate(room.id);
  t.deepEqual((await polls(again, owner)).map((poll) => poll.id), kept);
});
