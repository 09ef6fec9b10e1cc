/**
 * Vote-skip and polls through HTTP and the WebSocket (docs/2026-11-26-votes-and-polls.md): the room's
 * threshold is set with PATCH, votes count only members with a realtime connection, and every
 * socket sees the count and the skip.
 */
import test from 'ava';
import { open } from '../ws/fixtures.js';
import { startGatewayBed, type GatewayBed } from '../bed.js';

let bed: GatewayBed;
test.before(async () => {
  bed = await startGatewayBed('http_votes_polls');
});
test.after.always(async () => {
  await bed?.close();
});

interface VoteAnswer {
  voteSkip: { mediaId: string; votes: number; needed: number; voters: string[] };
  skipped: boolean;
  playback: { mediaId: string | null };
}

test('two of three present members skip at 50 %; a vote without a connection, or with vote-skip off, is conflict', async (t) => {
  const [owner, bob, carol] = [await bed.signUp('vsowner'), await bed.signUp('vsbob'), await bed.signUp('vscarol')];
  const created = await bed.call<{ room: { id: string; voteSkipPercent: number } }>('POST', '/api/rooms', { name: 'Votes' }, owner.token);
  t.is(created.body.room.voteSkipPercent, 0, 'off by default');
  const roomId = created.body.room.id;
  for (const member of [bob, carol]) await bed.call('POST', `/api/rooms/${roomId}/join`, {}, member.token);
  const ids: string[] = [];
  for (const title of ['One', 'Two']) {
    const pushed = await bed.call<{ item: { id: string } }>('POST', `/api/rooms/${roomId}/playlist`, { title, url: `https://media.example.com/${title}.mp4` }, owner.token);
    ids.push(pushed.body.item.id);
  }
  const [first, second] = ids as [string, string];

  const off = await bed.call<{ code: string; message: string }>('POST', `/api/rooms/${roomId}/playback/vote-skip`, { mediaId: first, vote: true }, bob.token);
  t.is(off.status, 409);
  t.regex(off.body.message, /vote-skip is off/);

  const patched = await bed.call<{ room: { voteSkipPercent: number } }>('PATCH', `/api/rooms/${roomId}`, { voteSkipPercent: 50 }, owner.token);
  t.is(patched.body.room.voteSkipPercent, 50);
  const bad = await bed.call<{ code: string; message: string }>('PATCH', `/api/rooms/${roomId}`, { voteSkipPercent: 150 }, owner.token);
  t.is(bad.status, 400);
  t.regex(bad.body.message, /voteSkipPercent/);

  const absent = await bed.call<{ message: string }>('POST', `/api/rooms/${roomId}/playback/vote-skip`, { mediaId: first, vote: true }, bob.token);
  t.is(absent.status, 409);
  t.regex(absent.body.message, /connect to the room/);

  const sockets = [await open(bed, roomId, owner), await open(bed, roomId, bob), await open(bed, roomId, carol)];
  try {
    const one = await bed.call<VoteAnswer>('POST', `/api/rooms/${roomId}/playback/vote-skip`, { mediaId: first, vote: true }, bob.token);
    t.is(one.status, 200);
    t.like(one.body, { skipped: false, voteSkip: { mediaId: first, votes: 1, needed: 2, voters: [bob.userId] } });
    await sockets[0]!.waitForEvent((m) => m.event.type === 'vote.skip' && m.event.voteSkip.votes === 1);

    // Carol votes over the WebSocket: the second of two needed.
    const two = await sockets[2]!.command({ kind: 'playback.voteSkip', mediaId: first, vote: true });
    t.true(two.result.skipped);
    t.is(two.result.playback.mediaId, second);
    const skipped = await sockets[1]!.waitForEvent((m) => m.event.type === 'playback' && m.event.cause === 'playback.voteSkip');
    t.like(skipped.event, { playback: { mediaId: second }, by: carol.userId });
  } finally {
    for (const socket of sockets) await socket.close();
  }
});

test('polls over HTTP: open (201), vote, close; the room view lists them; errors name the field', async (t) => {
  const [owner, bob] = [await bed.signUp('powner'), await bed.signUp('pbob')];
  const roomId = (await bed.call<{ room: { id: string } }>('POST', '/api/rooms', { name: 'Polls' }, owner.token)).body.room.id;
  await bed.call('POST', `/api/rooms/${roomId}/join`, {}, bob.token);
  const refused = await bed.call<{ message: string }>('POST', `/api/rooms/${roomId}/polls`, { question: 'Q?', options: ['A', 'B'] }, bob.token);
  t.is(refused.status, 403);
  t.regex(refused.body.message, /create_poll/);
  const opened = await bed.call<{ poll: { id: string; counts: number[] } }>('POST', `/api/rooms/${roomId}/polls`, { question: 'Q?', options: ['A', 'B'] }, owner.token);
  t.is(opened.status, 201);
  const pollId = opened.body.poll.id;
  const bad = await bed.call<{ message: string }>('POST', `/api/rooms/${roomId}/polls/${pollId}/vote`, { choice: 5 }, bob.token);
  t.is(bad.status, 400);
  t.regex(bad.body.message, /choice/);
  const voted = await bed.call<{ poll: { counts: number[]; myChoice?: number } }>('POST', `/api/rooms/${roomId}/polls/${pollId}/vote`, { choice: 1 }, bob.token);
  t.like(voted.body.poll, { counts: [0, 1], myChoice: 1 });
  const closed = await bed.call<{ poll: { closedAt: number | null } }>('POST', `/api/rooms/${roomId}/polls/${pollId}/close`, undefined, owner.token);
  t.is(closed.status, 200);
  t.not(closed.body.poll.closedAt, null);
  const view = await bed.call<{ polls: Array<{ id: string; myChoice?: number }> }>('GET', `/api/rooms/${roomId}`, undefined, bob.token);
  t.like(view.body.polls[0], { id: pollId, myChoice: 1 });
});
