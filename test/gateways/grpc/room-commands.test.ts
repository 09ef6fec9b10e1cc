import * as grpc from '@grpc/grpc-js';
import test from 'ava';
import { randomUUID } from 'node:crypto';
import type { MediaItem, MemberRoomView } from '../../../actors/room/index.js';
import { waitFor } from '../../fixtures/deadline.js';
import { actorSide, plain, chatMessageMessage, mediaMessage, memberMessage, playbackMessage } from './parity.js';
import { refused, startGrpcBed, type GrpcBed } from './fixtures.js';

let g: GrpcBed;
let actors: Awaited<ReturnType<typeof actorSide>>;
test.before(async () => {
  g = await startGrpcBed('grpc_room_commands');
  actors = await actorSide(g.bed);
});
test.after.always(async () => {
  await actors?.close();
  await g?.close();
});

/** The room's playlist once no item's seek check is running (a header edit checks again). */
function settledPlaylist(actorView: () => Promise<MemberRoomView>): Promise<MediaItem[]> {
  return waitFor('the seek checks', async () => {
    const playlist = (await actorView()).playlist ?? [];
    return playlist.every((item) => item.seekable !== 'checking') ? playlist : undefined;
  });
}

async function room(prefix: string) {
  const owner = await g.user(prefix);
  const { room: info } = await owner.as.rooms.CreateRoom({ name: `${prefix} room`, visibility: 'ROOM_VISIBILITY_HIDDEN' });
  const actorView = async () => (await actors.rooms.send(info!.id, { kind: 'room.get' }, actors.callerOf(owner.member))).result as MemberRoomView;
  return { ...owner, roomId: info!.id, actorView };
}

test('playlist: push, insert, move, edit, remove, clear and set current answer what the room holds', async (t) => {
  const { as, roomId, actorView, member } = await room('playlist');
  const pushed = await as.playlist.Push({
    roomId,
    title: 'Big Buck Bunny',
    url: 'https://media.example.com/bbb.mp4',
    headers: [{ name: 'Referer', value: 'https://media.example.com/' }],
    subtitles: [{ name: 'English', url: 'https://media.example.com/bbb.en.vtt', language: 'en' }],
  });
  t.is(pushed.index, 0);
  t.like(pushed.item, { title: 'Big Buck Bunny', provider: 'direct', live: false, proxy: false, addedBy: member.userId, headers: [{ name: 'Referer', value: 'https://media.example.com/' }] });
  const inserted = await as.playlist.Insert({ roomId, index: 0, title: 'Intro', url: 'https://media.example.com/intro.m3u8', provider: 'hls' });
  t.is(inserted.index, 0);
  // The answers came before the room's seek checks did (actors/room/seek-check.ts): compare the
  // rest now, and `seekable` once the checks have settled.
  const withoutSeekable = (item: object | null) => { const { seekable: _seekable, ...rest } = item as Record<string, unknown>; return rest; };
  t.deepEqual((await settledPlaylist(actorView)).map(mediaMessage).map(withoutSeekable), plain([inserted.item, pushed.item]).map(withoutSeekable));
  t.is(inserted.item!.seekable, 'MEDIA_SEEKABLE_YES', 'HLS seeks by its nature');

  t.deepEqual(await as.playlist.Move({ roomId, mediaId: inserted.item!.id, toIndex: 1 }), { mediaId: inserted.item!.id, index: 1 });
  const edited = await as.playlist.Edit({ roomId, mediaId: pushed.item!.id, title: 'Bunny (HD)', headers: { headers: [] } });
  t.like(edited.item, { id: pushed.item!.id, title: 'Bunny (HD)', url: 'https://media.example.com/bbb.mp4', headers: [] });
  t.is(edited.item!.subtitles.length, 1, 'absent subtitles stay as they were');
  const settled = await settledPlaylist(actorView);
  const view = await as.rooms.GetRoom({ roomId });
  t.deepEqual(plain(view.member!.playlist!.items), settled.map(mediaMessage));

  // The first item pushed was cued (docs/2026-11-26-queue-modes.md).
  const current = await as.playlist.SetCurrent({ roomId, mediaId: inserted.item!.id, expectMediaId: pushed.item!.id });
  t.like(current.playback, { mediaId: inserted.item!.id, playing: false, position: 0 });
  t.deepEqual(plain(current.playback), playbackMessage((await actorView()).playback));
  const stale = await refused(t, as.playlist.SetCurrent({ roomId, mediaId: pushed.item!.id, expectMediaId: '' }), 'conflict', grpc.status.FAILED_PRECONDITION);
  t.regex(stale.message, /.+/);

  t.deepEqual(await as.playlist.Remove({ roomId, mediaId: inserted.item!.id }), { mediaId: inserted.item!.id });
  await refused(t, as.playlist.Remove({ roomId, mediaId: inserted.item!.id }), 'not_found', grpc.status.NOT_FOUND);
  const badUrl = await refused(t, as.playlist.Push({ roomId, title: 'x', url: 'ftp://example.com/x' }), 'invalid_argument', grpc.status.INVALID_ARGUMENT);
  t.is(badUrl.issues[0]?.key, 'url');
  const badSubtitle = await refused(
    t,
    as.playlist.Push({ roomId, title: 'x', url: 'https://example.com/x.mp4', subtitles: [{ name: 'x', url: 'javascript:alert(1)' }] }),
    'invalid_argument',
    grpc.status.INVALID_ARGUMENT,
  );
  t.is(badSubtitle.issues[0]?.key, 'subtitles.0.url');
  const twice = await refused(
    t,
    as.playlist.Push({ roomId, title: 'x', url: 'https://example.com/x.mp4', headers: [{ name: 'X-A', value: '1' }, { name: 'X-A', value: '2' }] }),
    'invalid_argument',
    grpc.status.INVALID_ARGUMENT,
  );
  t.is(twice.issues[0]?.key, 'headers.X-A');
  t.deepEqual(await as.playlist.Clear({ roomId }), { removed: 1 });
  t.deepEqual((await actorView()).playlist, []);
});

test('playback: play, pause, seek, rate, next, previous and reports, with guards', async (t) => {
  const { as, roomId, actorView, member } = await room('playback');
  const first = (await as.playlist.Push({ roomId, title: 'One', url: 'https://media.example.com/1.mp4' })).item!;
  const second = (await as.playlist.Push({ roomId, title: 'Two', url: 'https://media.example.com/2.mp4' })).item!;
  await as.playlist.SetCurrent({ roomId, mediaId: first.id });

  const played = (await as.playback.Play({ roomId, position: 10, sentAt: Date.now() })).playback!;
  t.like(played, { playing: true, mediaId: first.id });
  t.true(played.position >= 10);
  const scheduled = (await as.playback.Seek({ roomId, position: 12, startInMs: 1500 })).playback!;
  t.like(scheduled, { playing: true, position: 12 }, 'a scheduled seek has no transit compensation');
  t.true(Number(scheduled.updatedAt) > Date.now() + 500, 'the start lies ahead in server time');
  t.is((await refused(t, as.playback.Play({ roomId, startInMs: 5000 }), 'invalid_argument', grpc.status.INVALID_ARGUMENT)).issues[0]?.key, 'startInMs');
  const paused = (await as.playback.Pause({ roomId, position: 42, expectVersion: scheduled.version })).playback!;
  t.like(paused, { playing: false, position: 42 });
  await refused(t, as.playback.Seek({ roomId, position: 5, expectVersion: played.version }), 'conflict', grpc.status.FAILED_PRECONDITION);
  t.like((await as.playback.Seek({ roomId, position: 5, expectMediaId: first.id })).playback, { position: 5, playing: false });
  t.like((await as.playback.SetRate({ roomId, rate: 1.5 })).playback, { rate: 1.5 });
  t.is((await refused(t, as.playback.SetRate({ roomId, rate: 0 }), 'invalid_argument', grpc.status.INVALID_ARGUMENT)).issues[0]?.key, 'rate');
  t.like((await as.playback.Next({ roomId })).playback, { mediaId: second.id });
  await refused(t, as.playback.Next({ roomId }), 'conflict', grpc.status.FAILED_PRECONDITION);
  t.like((await as.playback.Previous({ roomId, expectMediaId: second.id })).playback, { mediaId: first.id });

  const now = await as.playback.GetPlayback({ roomId });
  t.deepEqual(plain(now.playback), playbackMessage((await actorView()).playback));

  // Player reports need an online member: a WatchRoom stream makes the caller present.
  const stream = as.watchRoom({ roomId });
  await new Promise<void>((resolve, reject) => {
    stream.once('data', () => resolve());
    stream.once('error', reject);
  });
  const report = await as.playback.ReportPlayer({ roomId, state: 'PLAYER_STATE_READY', mediaId: first.id, duration: 100.5 });
  t.like(report.member, { userId: member.userId, online: true, player: { state: 'PLAYER_STATE_READY', mediaId: first.id } });
  t.deepEqual(plain(report.member), memberMessage((await actorView()).members!.find((m) => m.userId === member.userId)!));
  t.is((await refused(t, as.playback.ReportPlayer({ roomId, state: 'PLAYER_STATE_UNSPECIFIED' }), 'invalid_argument', grpc.status.INVALID_ARGUMENT)).issues[0]?.key, 'state');
  // The end counts once the room's own clock reaches the item's length.
  await as.playback.Seek({ roomId, position: 100 });
  await as.playback.Play({ roomId });
  await refused(t, as.playback.ReportEnded({ roomId, mediaId: first.id, duration: 600 }), 'conflict', grpc.status.FAILED_PRECONDITION);
  t.like((await as.playback.ReportEnded({ roomId, mediaId: first.id, duration: 100.5 })).playback, { mediaId: second.id });
  stream.cancel();

  const { as: outsider } = await g.user('outsider');
  await refused(t, outsider.playback.Play({ roomId }), 'forbidden', grpc.status.PERMISSION_DENIED);
  await refused(t, outsider.playback.GetPlayback({ roomId }), 'forbidden', grpc.status.PERMISSION_DENIED);
});

test('chat: send, history with cursor, delete, pin, unpin and pins match the room', async (t) => {
  const { as, roomId, member } = await room('chat');
  const { member: friend, as: asFriend } = await g.user('friend');
  await asFriend.rooms.JoinRoom({ roomId });
  const sent: string[] = [];
  for (let i = 0; i < 5; i += 1) sent.push((await as.chat.Send({ roomId, text: `  message ${i}\r\n` })).message!.id);
  const friendSays = await asFriend.chat.Send({ roomId, text: 'hi!', clientMessageId: 'c-1' });
  t.like(friendSays, { duplicate: false, message: { text: 'hi!', userId: friend.userId, pinned: false } });
  t.like(await asFriend.chat.Send({ roomId, text: 'hi!', clientMessageId: 'c-1' }), { duplicate: true, message: { id: friendSays.message!.id } });
  // A resend with the same svc-command-id through any gateway runs once.
  const commandId = `cmd-${randomUUID()}`;
  const once = await as.chat.Send({ roomId, text: 'once' }, { commandId });
  t.is((await as.chat.Send({ roomId, text: 'once' }, { commandId })).message!.id, once.message!.id);

  const page1 = await as.chat.History({ roomId, limit: 4 });
  t.deepEqual(
    page1.messages.map((m) => m.text),
    ['once', 'hi!', 'message 4', 'message 3'],
  );
  const actorPage = (await actors.rooms.send(roomId, { kind: 'chat.history', limit: 4 }, actors.callerOf(member))).result;
  t.deepEqual(plain(page1.messages), actorPage.messages.map(chatMessageMessage));
  t.is(page1.nextBefore, actorPage.nextBefore ?? undefined);
  const page2 = await as.chat.History({ roomId, before: page1.nextBefore! });
  t.deepEqual(page2.messages.map((m) => m.id), [...sent.slice(0, 3)].reverse());
  t.is(page2.nextBefore, undefined);
  t.is((await refused(t, as.chat.History({ roomId, before: 'abc' }), 'invalid_argument', grpc.status.INVALID_ARGUMENT)).issues[0]?.key, 'before');
  t.is((await refused(t, as.chat.Send({ roomId, text: '   ' }), 'invalid_argument', grpc.status.INVALID_ARGUMENT)).issues[0]?.key, 'text');

  t.like(await as.chat.Pin({ roomId, messageId: sent[1]! }), { message: { id: sent[1], pinned: true } });
  t.like(await as.chat.Pin({ roomId, messageId: sent[2]! }), { message: { id: sent[2], pinned: true } });
  t.deepEqual((await as.chat.ListPins({ roomId })).messages.map((m) => m.id), [sent[2], sent[1]]);
  t.like(await as.chat.Unpin({ roomId, messageId: sent[2]! }), { message: { pinned: false } });
  // Someone else's message needs delete_chat; one's own does not.
  await refused(t, asFriend.chat.Delete({ roomId, messageId: sent[0]! }), 'forbidden', grpc.status.PERMISSION_DENIED);
  t.deepEqual(await asFriend.chat.Delete({ roomId, messageId: friendSays.message!.id }), { messageId: friendSays.message!.id });
  // Reactions: the same lists as the actor answers, a name outside the set refused naming the field.
  t.like(await asFriend.chat.React({ roomId, messageId: sent[1]!, reaction: 'heart' }), { messageId: sent[1], reactions: [{ reaction: 'heart', userIds: [friend.userId] }] });
  t.like(await as.chat.React({ roomId, messageId: sent[1]!, reaction: 'heart' }), { reactions: [{ reaction: 'heart', userIds: [friend.userId, member.userId] }] });
  t.like(await asFriend.chat.Unreact({ roomId, messageId: sent[1]!, reaction: 'heart' }), { reactions: [{ reaction: 'heart', userIds: [member.userId] }] });
  t.is((await refused(t, as.chat.React({ roomId, messageId: sent[1]!, reaction: 'smile' }), 'invalid_argument', grpc.status.INVALID_ARGUMENT)).issues[0]?.key, 'reaction');
  t.deepEqual(await as.chat.SendReaction({ roomId, reaction: 'party' }), { sent: true });
  await refused(t, as.chat.Pin({ roomId, messageId: friendSays.message!.id }), 'not_found', grpc.status.NOT_FOUND);
  const pins = (await actors.rooms.send(roomId, { kind: 'chat.pins' }, actors.callerOf(member))).result;
  t.deepEqual(plain((await as.chat.ListPins({ roomId })).messages), pins.messages.map(chatMessageMessage));
});

test('vote-skip: the threshold is a room setting, VoteSkip counts and skips, and watchers see the count', async (t) => {
  const { as, roomId, actorView } = await room('voteskip');
  const first = (await as.playlist.Push({ roomId, title: 'One', url: 'https://media.example.com/1.mp4' })).item!;
  const second = (await as.playlist.Push({ roomId, title: 'Two', url: 'https://media.example.com/2.mp4' })).item!;
  await as.playlist.SetCurrent({ roomId, mediaId: first.id });
  const events: Array<{ event?: string; voteSkip?: unknown }> = [];
  let started = false;
  const stream = as.watchRoom({ roomId });
  stream.on('data', (message: { event?: { event?: string; voteSkip?: unknown } | null }) => {
    started = true;
    if (message.event) events.push(message.event);
  });
  stream.on('error', () => {}); // the cancel at the end
  await waitFor('the snapshot', () => (started ? true : undefined));

  await refused(t, as.playback.VoteSkip({ roomId, mediaId: first.id, vote: true }), 'conflict', grpc.status.FAILED_PRECONDITION);
  const updated = await as.rooms.UpdateRoom({ roomId, voteSkipPercent: 100 });
  t.is(updated.room!.voteSkipPercent, 100);
  const view = await as.rooms.GetRoom({ roomId });
  t.like(view.member!.voteSkip, { mediaId: first.id, votes: 0, needed: 1 });

  const voted = await as.playback.VoteSkip({ roomId, mediaId: first.id, vote: true });
  t.true(voted.skipped);
  t.like(voted.voteSkip, { mediaId: first.id, votes: 1, needed: 1 });
  t.like(voted.playback, { mediaId: second.id });
  t.deepEqual(plain(voted.playback), { ...playbackMessage((await actorView()).playback) });
  const counted = (event: { event?: string; voteSkip?: unknown }) => event.event === 'voteSkip' && (event.voteSkip as { voteSkip: { votes: number } }).voteSkip.votes === 1;
  const seen = await waitFor('the voteSkip event with the vote', () => events.find(counted));
  t.like(seen.voteSkip, { voteSkip: { mediaId: first.id, votes: 1, needed: 1 } });
  t.like(events.find((event) => event.event === 'voteSkip')?.voteSkip, { voteSkip: { votes: 0, needed: 1 } }, 'turning it on told the count first');
  stream.cancel();
});

test('polls: Open, Vote and Close answer what the room holds, and RoomView lists them', async (t) => {
  const { as, roomId, actorView } = await room('polls');
  const opened = (await as.polls.Open({ roomId, question: 'Film or series?', options: ['Film', 'Series'], durationMs: 60_000 })).poll!;
  t.like(opened, { question: 'Film or series?', options: ['Film', 'Series'], counts: [0, 0] });
  t.true(Number(opened.closesAt) > Date.now());
  await refused(t, as.polls.Open({ roomId, question: 'Again?', options: ['Yes', 'No'] }), 'conflict', grpc.status.FAILED_PRECONDITION);
  t.is((await refused(t, as.polls.Open({ roomId, question: 'One?', options: ['Only'] }), 'invalid_argument', grpc.status.INVALID_ARGUMENT)).issues[0]?.key, 'options');
  const voted = (await as.polls.Vote({ roomId, pollId: opened.id, choice: 1 })).poll!;
  t.like(voted, { counts: [0, 1], myChoice: 1 });
  const view = await as.rooms.GetRoom({ roomId });
  t.deepEqual(plain(view.member!.polls[0]), plain(voted));
  const closed = (await as.polls.Close({ roomId, pollId: opened.id })).poll!;
  t.true(Number(closed.closedAt) > 0);
  t.like((await actorView()).polls?.[0], { id: opened.id, counts: [0, 1] });
  await refused(t, as.polls.Vote({ roomId, pollId: opened.id, choice: 0 }), 'conflict', grpc.status.FAILED_PRECONDITION);
});

test('danmaku: the room option over gRPC, SendDanmaku and ListDanmaku answer what the room holds; HTTP answers the same list', async (t) => {
  const { as, roomId, member } = await room('danmaku');
  const { item } = await as.playlist.Push({ roomId, title: 'Film', url: 'https://media.example.com/film.mp4' });
  await as.playlist.SetCurrent({ roomId, mediaId: item!.id });
  await refused(t, as.chat.SendDanmaku({ roomId, mediaId: item!.id, position: 0, text: 'hi' }), 'forbidden', grpc.status.PERMISSION_DENIED);
  t.like(await as.rooms.UpdateRoom({ roomId, danmaku: true }), { room: { danmaku: true } });

  const sent = await as.chat.SendDanmaku({ roomId, mediaId: item!.id, position: 0.5, text: ' first! ' });
  t.like(sent.comment, { mediaId: item!.id, position: 0.5, text: 'first!', userId: member.userId });
  const far = await refused(t, as.chat.SendDanmaku({ roomId, mediaId: item!.id, position: 600, text: 'spoiler' }), 'invalid_argument', grpc.status.INVALID_ARGUMENT);
  t.is(far.issues[0]?.key, 'position');
  const listed = await as.chat.ListDanmaku({ roomId, mediaId: item!.id });
  const actorList = (await actors.rooms.send(roomId, { kind: 'danmaku.list', mediaId: item!.id }, actors.callerOf(member))).result;
  t.deepEqual(plain(listed.comments), actorList.comments.map((comment) => ({ ...comment })));
  const http = await g.bed.call<{ comments: unknown[] }>('GET', `/api/rooms/${roomId}/danmaku/${item!.id}`, undefined, member.token);
  t.is(http.status, 200);
  t.deepEqual(http.body.comments, actorList.comments);
  const posted = await g.bed.call<{ comment: { text: string } }>('POST', `/api/rooms/${roomId}/danmaku`, { mediaId: item!.id, position: 1, text: 'over HTTP' }, member.token);
  t.is(posted.status, 201, JSON.stringify(posted.body));
  t.is(posted.body.comment.text, 'over HTTP');
});
