/**
 * `member.forget` (actors/room/members/forget-member.ts): what a room keeps of an account being
 * closed, changed through the room actor (docs/2026-11-26-profiles-and-accounts.md, the
 * close-account table). Votes keep counting under new ids, polls are by "Former member", a ban
 * keeps its id and loses the name, a room library the account connected is removed and the room
 * told; memory and store agree (a new activation sees the same), and a repeat changes nothing.
 */
import test from 'ava';
import type { Caller } from '../../../actors/runtime/actor-type.js';
import type { MemberRoomView } from '../../../contracts/room/model.js';
import { RoomTestBed, addMember, media, rejects, service, uid, user } from './fixtures.js';

let bed: RoomTestBed;

test.before(async () => {
  bed = await RoomTestBed.start('room_forget_member');
});

test.after.always(async () => {
  await bed?.close();
});

async function viewOf(room: Awaited<ReturnType<RoomTestBed['activate']>>, who: Caller): Promise<MemberRoomView> {
  const view = await room.send(who, { kind: 'room.get' });
  if (view.access !== 'member') throw new Error(`${who.userId} is not a member`);
  return view;
}

test('member.forget keeps the tallies under new ids, unnames polls and the ban, removes the libraries the account connected and says so', async (t) => {
  const owner = user(uid('owner'), 'Owner');
  const alice = user(uid('alice'), 'Alice');
  const carol = user(uid('carol'), 'Carol');
  const room = await bed.createRoom(owner, { settings: { queueMode: 'vote' } });
  for (const who of [alice, carol]) await addMember(room, who);
  await room.send(owner, { kind: 'member.setRole', userId: alice.userId, role: 'admin' });
  const { item } = await room.send(owner, { kind: 'playlist.push', ...media('A') });
  const { poll } = await room.send(alice, { kind: 'poll.open', question: 'Which?', options: ['A', 'B'] });
  for (const who of [alice, carol]) await room.send(who, { kind: 'poll.vote', pollId: poll.id, choice: 1 });
  for (const who of [alice, carol]) await room.send(who, { kind: 'playlist.vote', mediaId: item.id, vote: true });
  await bed.pool.query(`INSERT INTO media_libraries (id, kind, name, url, secret_sealed, owner_room_id, created_by) VALUES ($1, 'webdav', 'Shows', 'https://dav.invalid/', '', $2, $3)`, [
    uid('lib'),
    room.id,
    alice.userId,
  ]);

  await rejects(t, room.send(owner, { kind: 'member.forget', userId: alice.userId }), 'forbidden', /by the service/);
  await rejects(t, room.send(service(), { kind: 'member.forget', userId: alice.userId }), 'conflict', /still in this room/);
  await room.send(owner, { kind: 'member.ban', userId: alice.userId });

  const forgotten = await room.send(service(), { kind: 'member.forget', userId: alice.userId });
  t.deepEqual(forgotten, { pollVotes: 1, polls: 1, queueVotes: 1, bans: 1, libraries: 1 });
  const pollEvent = room.lastEvent('poll')?.poll;
  t.is(pollEvent?.createdBy, 'former-member');
  t.deepEqual(pollEvent?.counts, [0, 2], 'the vote still counts');
  const votes = room.lastEvent('queue.votes')?.queueVotes;
  t.is(votes?.votes, 2);
  t.false(votes?.voters.includes(alice.userId));
  t.true(votes?.voters.some((id) => id.startsWith('former-member:')));
  const notice = room.lastEvent('chat.message')?.message;
  t.like(notice, { userId: 'service:room', name: 'Room' });
  t.regex(notice?.text ?? '', /room library "Shows" was removed/);

  const check = async (current: typeof room, label: string) => {
    const view = await viewOf(current, owner);
    t.deepEqual(view.polls?.map((p) => ({ createdBy: p.createdBy, counts: p.counts })), [{ createdBy: 'former-member', counts: [0, 2] }], label);
    t.is(view.queueVotes?.[0]?.votes, 2, label);
    const { bannedMembers, ...rest } = view;
    t.false(JSON.stringify(rest).includes(alice.userId), `${label}: only the ban holds the id`);
    t.deepEqual(bannedMembers?.map(({ userId, name }) => ({ userId, name })), [{ userId: alice.userId, name: 'Former member' }], label);
    const bans = await current.send(owner, { kind: 'member.bans' });
    t.deepEqual(bans.members.map(({ userId, name }) => ({ userId, name })), [{ userId: alice.userId, name: 'Former member' }], label);
  };
  await check(room, 'this activation');
  const again = await room.send(service(), { kind: 'member.forget', userId: alice.userId });
  t.deepEqual(again, { pollVotes: 0, polls: 0, queueVotes: 0, bans: 0, libraries: 0 }, 'a repeat changes nothing');
  t.is(room.events('chat.message').length, 1);
  await room.deactivate();
  await check(await bed.activate(room.id), 'a new activation');
  const { rows } = await bed.pool.query('SELECT 1 FROM media_libraries WHERE owner_room_id = $1', [room.id]);
  t.is(rows.length, 0);
});
