/**
 * The pure rule the room page follows: how events change the member's view, the chat and the
 * pinned list, whether they arrive live or as a resume's backlog.
 */
import test from 'ava';
import type { MediaItem } from '../../../contracts/room/model.js';
import { applyChatEvent, applyPinEvent, applyRoomEvent, type ChatMessage, type MemberRoomView, type MemberView } from '../../../web/src/state/room-view.js';

const item = (id: string): MediaItem => ({ id, title: id, url: `https://media.invalid/${id}`, provider: 'direct', headers: {}, subtitles: [], live: false, proxy: false, seekable: 'unknown', reach: null, addedBy: 'u1', addedAt: 1, folderId: null });
const member = (userId: string, online = true): MemberView => ({ userId, name: userId, role: 'member', status: 'active', guest: false, isOwner: false, joinedAt: 1, online, player: null, permissionOverride: null });
const message = (id: string, pinned = false): ChatMessage => ({ id, userId: 'u1', name: 'u1', text: `m${id}`, pinned, createdAt: 1, reactions: [], mentions: [] });

function view(): MemberRoomView {
  return {
    access: 'member',
    room: { id: 'r', name: 'R', ownerId: 'u1', visibility: 'public', status: 'active', hasPassword: false, requireJoinApproval: true, waitForAllReady: false, readyTimeoutMs: 10_000, queueMode: 'next', voteSkipPercent: 0, danmaku: false, permissionOverrides: {}, slowModeSeconds: 0, createdAt: 1, updatedAt: 1 },
    me: { userId: 'u1', status: 'active', role: 'admin', isOwner: true, permissions: [], permissionOverride: null },
    headcount: { members: 2, online: 0, crowd: false },
    members: [member('u1'), member('u2')],
    pendingMembers: [],
    bannedMembers: [],
    playlist: [item('a'), item('b'), item('c')],
    playback: { mediaId: null, playing: false, position: 0, rate: 1, updatedAt: 1, version: 0, waitingForReady: null, item: null },
    seq: 1,
  };
}

const ids = (v: MemberRoomView) => v.playlist!.map((entry) => entry.id);

test('playlist moves, adds, removes and clears follow the events', (t) => {
  let v = applyRoomEvent(view(), { type: 'playlist', op: 'moved', mediaId: 'c', toIndex: 0, folderId: null });
  t.deepEqual(ids(v), ['c', 'a', 'b']);
  v = applyRoomEvent(v, { type: 'playlist', op: 'moved', mediaId: 'c', toIndex: 99, folderId: null });
  t.deepEqual(ids(v), ['a', 'b', 'c'], 'an index past the end moves to the end');
  v = applyRoomEvent(v, { type: 'playlist', op: 'added', item: item('d'), index: 1 });
  t.deepEqual(ids(v), ['a', 'd', 'b', 'c']);
  v = applyRoomEvent(v, { type: 'playlist', op: 'removed', mediaId: 'b' });
  t.deepEqual(ids(v), ['a', 'd', 'c']);
  t.is(applyRoomEvent(v, { type: 'playlist', op: 'moved', mediaId: 'gone', toIndex: 0, folderId: null }), v, 'an unknown item changes nothing');
  t.deepEqual(ids(applyRoomEvent(v, { type: 'playlist', op: 'cleared' })), []);
});

test('members: a request, its approval, an update, a ban and an unban', (t) => {
  let v = applyRoomEvent(view(), { type: 'member.requested', member: { ...member('u3'), status: 'pending' } });
  t.deepEqual(v.pendingMembers!.map((m) => m.userId), ['u3']);
  v = applyRoomEvent(v, { type: 'member.joined', member: member('u3') });
  t.deepEqual(v.pendingMembers, []);
  t.deepEqual(v.members!.map((m) => m.userId), ['u1', 'u2', 'u3']);
  v = applyRoomEvent(v, { type: 'member.updated', member: member('u2', false) });
  t.false(v.members!.find((m) => m.userId === 'u2')!.online);
  v = applyRoomEvent(v, { type: 'member.banned', member: { ...member('u2'), status: 'banned' }, by: 'u1' });
  t.deepEqual(v.members!.map((m) => m.userId), ['u1', 'u3']);
  t.deepEqual(v.bannedMembers!.map((m) => m.userId), ['u2']);
  v = applyRoomEvent(v, { type: 'member.unbanned', userId: 'u2', by: 'u1' });
  t.deepEqual(v.bannedMembers, []);
  v = applyRoomEvent(v, { type: 'member.left', userId: 'u3', reason: 'kicked', by: 'u1' });
  t.deepEqual(v.members!.map((m) => m.userId), ['u1']);
});

test('a crowd: the list keeps only the owner and admins, follows role changes by that rule, and the count follows headcount', (t) => {
  const owner = { ...member('u1'), isOwner: true, role: 'admin' as const };
  let v: MemberRoomView = { ...view(), members: [owner, member('u2'), member('u3')] };
  v = applyRoomEvent(v, { type: 'headcount', headcount: { members: 201, online: 40, crowd: true } });
  t.deepEqual(v.headcount, { members: 201, online: 40, crowd: true });
  t.deepEqual(v.members!.map((m) => m.userId), ['u1'], "a plain member's entry would go stale: it is dropped");
  v = applyRoomEvent(v, { type: 'member.updated', member: { ...member('u2'), role: 'admin' } });
  t.deepEqual(v.members!.map((m) => m.userId), ['u1', 'u2'], 'a new admin is named');
  v = applyRoomEvent(v, { type: 'member.updated', member: member('u2') });
  t.deepEqual(v.members!.map((m) => m.userId), ['u1'], 'and no longer once demoted');
  v = applyRoomEvent(v, { type: 'member.joined', member: member('u9') });
  t.deepEqual(v.members!.map((m) => m.userId), ['u1']);
});

test('chat: a message once however often it arrives, deletes, pins; the pinned list newest first', (t) => {
  let chat = applyChatEvent([], { type: 'chat.message', message: message('9') });
  chat = applyChatEvent(chat, { type: 'chat.message', message: message('9') });
  chat = applyChatEvent(chat, { type: 'chat.message', message: message('10') });
  t.deepEqual(chat.map((m) => m.id), ['9', '10']);
  chat = applyChatEvent(chat, { type: 'chat.pinned', message: message('9', true), by: 'u1' });
  t.true(chat[0]!.pinned);
  t.deepEqual(applyChatEvent(chat, { type: 'chat.deleted', messageId: '9', by: 'u1' }).map((m) => m.id), ['10']);
  t.deepEqual(applyChatEvent([message('1'), message('2'), message('3')], { type: 'chat.message', message: message('4') }, 2).map((m) => m.id), ['3', '4']);

  let pins = applyPinEvent([], { type: 'chat.pinned', message: message('9', true), by: 'u1' });
  pins = applyPinEvent(pins, { type: 'chat.pinned', message: message('10', true), by: 'u1' });
  t.deepEqual(pins.map((m) => m.id), ['10', '9'], 'by id as numbers: 10 is newer than 9');
  pins = applyPinEvent(pins, { type: 'chat.pinned', message: message('10', false), by: 'u1' });
  t.deepEqual(pins.map((m) => m.id), ['9']);
  t.deepEqual(applyPinEvent(pins, { type: 'chat.deleted', messageId: '9', by: 'u1' }), []);
});

test('the voice call follows joins, mutes and leaves; signalling leaves the view alone', (t) => {
  const seat = (userId: string, muted = false) => ({ userId, name: userId, muted, joinedAt: 1 });
  let v = applyRoomEvent({ ...view(), voice: [] }, { type: 'voice.joined', participant: seat('u1') });
  v = applyRoomEvent(v, { type: 'voice.joined', participant: seat('u2') });
  v = applyRoomEvent(v, { type: 'voice.joined', participant: seat('u1', true) });
  t.deepEqual(v.voice, [seat('u2'), seat('u1', true)], 'a second join (another socket) replaces the seat');
  v = applyRoomEvent(v, { type: 'voice.muted', userId: 'u2', muted: true });
  t.deepEqual(v.voice?.map((p) => p.muted), [true, true]);
  t.is(applyRoomEvent(v, { type: 'voice.signal', from: 'u2', to: 'u1', description: { type: 'offer', sdp: 'v=0' } }), v);
  v = applyRoomEvent(v, { type: 'voice.left', userId: 'u2', reason: 'disconnected' });
  t.deepEqual(v.voice, [seat('u1', true)]);
});

test('vote-skip: the count follows vote.skip, starts again with a new item, and goes when the room turns it off', (t) => {
  const playing = (mediaId: string | null) => ({ ...view().playback, mediaId });
  let v = applyRoomEvent(view(), { type: 'vote.skip', voteSkip: { mediaId: 'a', votes: 1, needed: 2, voters: ['u2'] } });
  t.like(v.voteSkip, { mediaId: 'a', votes: 1 });
  v = applyRoomEvent(v, { type: 'playback', playback: playing('a'), cause: 'playback.pause', by: 'u1' });
  t.like(v.voteSkip, { votes: 1 }, 'the same item keeps its votes');
  v = applyRoomEvent(v, { type: 'playback', playback: playing('b'), cause: 'playback.voteSkip', by: 'u2' });
  t.deepEqual(v.voteSkip, { mediaId: 'b', votes: 0, needed: 2, voters: [] });
  v = applyRoomEvent(v, { type: 'room.updated', room: { ...v.room, voteSkipPercent: 0 } });
  t.is(v.voteSkip, undefined);
});

test('chat: an edit replaces the message and re-quotes its replies; deleting an original leaves its replies saying so', (t) => {
  const reply: ChatMessage = { ...message('2'), replyTo: { id: '1', deleted: false, userId: 'u1', name: 'u1', excerpt: 'm1' } };
  let chat = [message('1'), reply];
  const edited = { ...message('1'), text: 'fixed', editedAt: 5 };
  chat = applyChatEvent(chat, { type: 'chat.edited', message: edited });
  t.deepEqual(chat[0], edited);
  t.is(chat[1]!.replyTo?.excerpt, 'fixed');
  t.deepEqual(applyPinEvent([message('1', true)], { type: 'chat.edited', message: { ...edited, pinned: true } })[0]?.text, 'fixed');
  chat = applyChatEvent(chat, { type: 'chat.deleted', messageId: '1', by: 'u1' });
  t.deepEqual(chat.map((m) => m.replyTo), [{ id: '1', deleted: true, userId: '', name: '', excerpt: '' }]);
});

test("an item's checks reach what is playing (a guest has no playlist): its seekable and how it reaches browsers", (t) => {
  const playing = { ...view(), playlist: undefined, playback: { ...view().playback, mediaId: 'a', item: { id: 'a', title: 'a', provider: 'direct', live: false, subtitles: [], seekable: 'checking' as const, reachHow: null } } };
  const checked = applyRoomEvent(playing, { type: 'media.checked', mediaId: 'a', seekable: 'yes', reachHow: 'video' });
  t.like(checked.playback.item, { id: 'a', seekable: 'yes', reachHow: 'video' });
  t.is(applyRoomEvent(playing, { type: 'media.checked', mediaId: 'b', seekable: 'no', reachHow: 'audio' }), playing, 'another item changes nothing');
});
