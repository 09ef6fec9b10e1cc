/**
 * Chat moderation in the room actor: slow mode (one message, and one danmaku comment, per member
 * per N seconds, holders of delete_chat exempt, refusals carrying the wait) and the word filter
 * (masked or refused in chat and danmaku, whole words for spaced scripts, substrings for CJK,
 * seen only by holders of edit_room_settings). A refusal writes nothing.
 */
import test from 'ava';
import type { Caller } from '../../../actors/runtime/actor-type.js';
import { ROOM_LIMITS } from '../../../actors/room/index.js';
import type { RoomCommand } from '../../../contracts/room/commands.js';
import type { MemberRoomView } from '../../../contracts/room/model.js';
import { RoomTestBed, TestClock, addMember, media, rejects, uid, user, type TestRoom } from './fixtures.js';

let bed: RoomTestBed;

test.before(async () => {
  bed = await RoomTestBed.start('room_chat_moderation');
});

test.after.always(async () => {
  await bed?.close();
});

type Settings = NonNullable<Extract<RoomCommand, { kind: 'room.create' }>['settings']>;

/** A room with `settings`, its owner and one plain member, on its own clock. */
async function scene(settings: Settings): Promise<{ room: TestRoom; owner: Caller; member: Caller; clock: TestClock }> {
  const clock = new TestClock();
  const owner = user(uid('owner'), 'Owner');
  const member = user(uid('member'), 'Member');
  const room = await bed.activate(uid('room'), { clock });
  await room.send(owner, { kind: 'room.create', name: 'Cinema', visibility: 'public', settings });
  await addMember(room, member);
  return { room, owner, member, clock };
}

async function chatCount(room: TestRoom): Promise<number> {
  const { rows } = await bed.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM chat_messages WHERE room_id = $1', [room.id]);
  return rows[0]?.n ?? -1;
}

async function viewOf(room: TestRoom, who: Caller): Promise<MemberRoomView> {
  const view = await room.send(who, { kind: 'room.get' });
  if (view.access !== 'member') throw new Error(`${who.userId} is not a member`);
  return view;
}

const send = (room: TestRoom, who: Caller, text: string, clientMessageId?: string) =>
  room.send(who, { kind: 'chat.send', text, ...(clientMessageId !== undefined ? { clientMessageId } : {}) });

test('slow mode refuses a second message within the period with the wait, and lets it through after', async (t) => {
  const { room, member, clock } = await scene({ slowModeSeconds: 10 });
  await send(room, member, 'first');
  clock.advance(3_000);
  const err = await rejects(t, send(room, member, 'second'), 'rate_limited', /slow mode: one message every 10 s in this room; try again in 7 s/);
  t.deepEqual(err.issues, [{ key: 'retryAfterMs', message: '7000' }]);
  t.is(err.retryAfterSeconds, 7);
  t.is(await chatCount(room), 1, 'the refused message is not stored');
  clock.advance(7_000);
  t.is((await send(room, member, 'second')).message.text, 'second');
  t.is(await chatCount(room), 2);
});

test('slow mode paces each member and each channel apart; delete_chat holders are exempt', async (t) => {
  const { room, owner, member } = await scene({ slowModeSeconds: 30 });
  const other = user(uid('other'), 'Other');
  await addMember(room, other);
  await send(room, member, 'mine');
  await send(room, other, 'theirs');
  for (const text of ['one', 'two', 'three']) await send(room, owner, text);
  await rejects(t, send(room, member, 'again'), 'rate_limited');
  // A member given delete_chat by the room moderates, and is not slowed either.
  await room.send(owner, { kind: 'room.update', permissionOverrides: { member: ['send_chat', 'view_chat_history', 'delete_chat'] } });
  await send(room, member, 'again');
  t.is(await chatCount(room), 6);
});

test("a resend of the same message (its clientMessageId) is the stored one, not slow mode's second", async (t) => {
  const { room, member } = await scene({ slowModeSeconds: 60 });
  const first = await send(room, member, 'hello', 'c-1');
  const again = await send(room, member, 'hello', 'c-1');
  t.true(again.duplicate);
  t.is(again.message.id, first.message.id);
  await rejects(t, send(room, member, 'hello again', 'c-2'), 'rate_limited');
});

test('a resend is free only while the original stands: send, delete, resend with the same clientMessageId is paced', async (t) => {
  const { room, owner, member, clock } = await scene({ slowModeSeconds: 60 });
  const first = await send(room, member, 'hello', 'c-1');
  await room.send(member, { kind: 'chat.delete', messageId: first.message.id });
  clock.advance(10_000);
  const err = await rejects(t, send(room, member, 'hello', 'c-1'), 'rate_limited', /slow mode: one message every 60 s in this room; try again in 50 s/);
  t.deepEqual(err.issues, [{ key: 'retryAfterMs', message: '50000' }]);
  t.is(err.retryAfterSeconds, 50);
  t.is(await chatCount(room), 0, 'the resend is not stored');
  // A moderator's delete frees nothing either.
  clock.advance(50_000);
  const second = await send(room, member, 'hello', 'c-2');
  t.false(second.duplicate);
  await room.send(owner, { kind: 'chat.delete', messageId: second.message.id });
  await rejects(t, send(room, member, 'hello', 'c-2'), 'rate_limited', /try again in 60 s/);
  // While the original stands its resend is still the stored message, and after the wait a
  // resend of a deleted one is a new message.
  clock.advance(60_000);
  const third = await send(room, member, 'hello', 'c-2');
  t.false(third.duplicate);
  t.not(third.message.id, second.message.id);
  const again = await send(room, member, 'hello', 'c-2');
  t.true(again.duplicate);
  t.is(again.message.id, third.message.id);
  t.is(await chatCount(room), 1);
});

test('slow mode paces danmaku too, apart from chat', async (t) => {
  const { room, owner, member, clock } = await scene({ slowModeSeconds: 5, danmaku: true });
  const { item } = await room.send(owner, { kind: 'playlist.push', ...media('A') });
  await room.send(owner, { kind: 'playlist.setCurrent', mediaId: item.id });
  await send(room, member, 'chat first');
  await room.send(member, { kind: 'danmaku.send', mediaId: item.id, position: 0, text: 'wow' });
  const err = await rejects(t, room.send(member, { kind: 'danmaku.send', mediaId: item.id, position: 0, text: 'wow again' }), 'rate_limited', /one danmaku comment every 5 s/);
  t.is(err.issues[0]?.key, 'retryAfterMs');
  clock.advance(5_000);
  await room.send(member, { kind: 'danmaku.send', mediaId: item.id, position: 0, text: 'wow again' });
  t.is((await room.send(member, { kind: 'danmaku.list', mediaId: item.id })).comments.length, 2);
});

test('slowModeSeconds is bounded, set by edit_room_settings holders, turned off with 0, and shown to members', async (t) => {
  const { room, owner, member } = await scene({});
  t.is((await viewOf(room, member)).room.slowModeSeconds, 0);
  for (const bad of [-1, ROOM_LIMITS.slowModeMaxSeconds + 1, 1.5]) {
    const err = await rejects(t, room.sendRaw(owner, { kind: 'room.update', slowModeSeconds: bad }), 'invalid_argument');
    t.is(err.issues[0]?.key, 'slowModeSeconds', String(bad));
  }
  await rejects(t, room.send(member, { kind: 'room.update', slowModeSeconds: 5 }), 'forbidden', /edit_room_settings/);
  const { room: info } = await room.send(owner, { kind: 'room.update', slowModeSeconds: ROOM_LIMITS.slowModeMaxSeconds });
  t.is(info.slowModeSeconds, ROOM_LIMITS.slowModeMaxSeconds);
  t.is(room.lastEvent('room.updated')?.room.slowModeSeconds, ROOM_LIMITS.slowModeMaxSeconds);
  await send(room, member, 'one');
  await rejects(t, send(room, member, 'two'), 'rate_limited');
  await room.send(owner, { kind: 'room.update', slowModeSeconds: 0 });
  await send(room, member, 'two');
});

test('slow mode survives in the stored room; the last send times do not survive a new activation', async (t) => {
  const { room, owner, member, clock } = await scene({ slowModeSeconds: 60 });
  await send(room, member, 'before');
  await room.deactivate();
  const again = await bed.activate(room.id, { clock });
  t.is((await viewOf(again, owner)).room.slowModeSeconds, 60);
  await send(again, member, 'after the move');
  await rejects(t, send(again, member, 'third'), 'rate_limited');
});

test('the word filter masks listed words in chat and danmaku, keeping their length', async (t) => {
  const { room, owner, member } = await scene({ danmaku: true, wordFilter: { mode: 'mask', words: ['Darn', 'bad word', '笨蛋'] } });
  const { message } = await send(room, member, 'DARN it, what a Bad   word, 你这个笨蛋啊');
  t.is(message.text, '**** it, what a ***   ****, 你这个＊＊啊');
  t.is(room.lastEvent('chat.message')?.message.text, message.text);
  const { rows } = await bed.pool.query<{ text: string }>('SELECT text FROM chat_messages WHERE id = $1', [message.id]);
  t.is(rows[0]?.text, message.text, 'stored masked');
  const { item } = await room.send(owner, { kind: 'playlist.push', ...media('A') });
  await room.send(owner, { kind: 'playlist.setCurrent', mediaId: item.id });
  const { comment } = await room.send(member, { kind: 'danmaku.send', mediaId: item.id, position: 0, text: 'darn!' });
  t.is(comment.text, '****!');
});

test('an edit is filtered as a send is: a message cannot be edited into a filtered word', async (t) => {
  const { room, member } = await scene({ wordFilter: { mode: 'mask', words: ['darn'] } });
  const { message } = await send(room, member, 'fine words');
  const edited = await room.send(member, { kind: 'chat.edit', messageId: message.id, text: 'darn words' });
  t.is(edited.message.text, '**** words');
  t.is(room.lastEvent('chat.edited')?.message.text, '**** words');
});

test('single words match whole words in spaced scripts, CJK entries match inside text', async (t) => {
  const { room, member } = await scene({ wordFilter: { mode: 'mask', words: ['ass', 'café', 'ばか'] } });
  const kept = ['class assistant', 'bass', 'cafés'];
  for (const text of kept) t.is((await send(room, member, text)).message.text, text);
  t.is((await send(room, member, 'ass! (ass) 说ass了')).message.text, '***! (***) 说***了', 'punctuation and CJK neighbours are boundaries');
  t.is((await send(room, member, 'CAFÉ and cafe\u0301')).message.text, '**** and ****', 'case-insensitive on NFC text');
  t.is((await send(room, member, 'おまえはばかだ')).message.text, 'おまえは＊＊だ');
});

test('the word filter in block mode refuses the message naming text, and stores nothing', async (t) => {
  const { room, owner, member, clock } = await scene({ slowModeSeconds: 10, danmaku: true, wordFilter: { mode: 'block', words: ['spoiler'] } });
  const err = await rejects(t, send(room, member, 'SPOILER: he dies'), 'invalid_argument', /the message contains a word this room filters/);
  t.deepEqual(err.issues, [{ key: 'text', message: 'the message contains a word this room filters' }]);
  t.is(await chatCount(room), 0);
  t.is(room.events('chat.message').length, 0);
  // The refused message did not use the sender's slow mode turn.
  await send(room, member, 'no spoilers here… wait, spoilers!');
  clock.advance(10_000);
  const { item } = await room.send(owner, { kind: 'playlist.push', ...media('A') });
  await room.send(owner, { kind: 'playlist.setCurrent', mediaId: item.id });
  const refused = await rejects(t, room.send(member, { kind: 'danmaku.send', mediaId: item.id, position: 0, text: 'spoiler' }), 'invalid_argument');
  t.is(refused.issues[0]?.key, 'text');
  t.deepEqual((await room.send(member, { kind: 'danmaku.list', mediaId: item.id })).comments, []);
});

test('the word list is capped and checked per entry; a refusal changes nothing', async (t) => {
  const { room, owner } = await scene({ wordFilter: { mode: 'mask', words: ['keep'] } });
  const tooMany = Array.from({ length: ROOM_LIMITS.wordFilterMaxEntries + 1 }, (_, i) => `w${i}`);
  const many = await rejects(t, room.sendRaw(owner, { kind: 'room.update', wordFilter: { mode: 'mask', words: tooMany } }), 'invalid_argument');
  t.is(many.issues[0]?.key, 'wordFilter.words');
  const long = 'x'.repeat(ROOM_LIMITS.wordFilterEntryMaxChars + 1);
  const entry = await rejects(t, room.send(owner, { kind: 'room.update', wordFilter: { mode: 'block', words: ['ok', long] } }), 'invalid_argument', /at most 50 characters/);
  t.is(entry.issues[0]?.key, 'wordFilter.words.1');
  // 50 characters of CJK are 50, not 150 bytes.
  const cjk = '字'.repeat(ROOM_LIMITS.wordFilterEntryMaxChars);
  const mode = await rejects(t, room.sendRaw(owner, { kind: 'room.update', wordFilter: { mode: 'hide', words: [] } }), 'invalid_argument');
  t.is(mode.issues[0]?.key, 'wordFilter.mode');
  t.deepEqual((await viewOf(room, owner)).wordFilter, { mode: 'mask', words: ['keep'] }, 'unchanged by the refusals');
  await room.send(owner, { kind: 'room.update', wordFilter: { mode: 'block', words: ['  Two   Words ', 'two words', '', cjk] } });
  t.deepEqual(room.lastEvent('room.wordFilter')?.wordFilter, { mode: 'block', words: ['two words', cjk] }, 'normalised: trimmed, lower case, no duplicates or empty lines');
});

test('only holders of edit_room_settings see the word list; others are still filtered', async (t) => {
  const { room, owner, member } = await scene({ wordFilter: { mode: 'mask', words: ['secret'] } });
  t.deepEqual((await viewOf(room, owner)).wordFilter, { mode: 'mask', words: ['secret'] });
  const theirs = await viewOf(room, member);
  t.false('wordFilter' in theirs);
  t.false(JSON.stringify(theirs).includes('secret'));
  t.is((await send(room, member, 'a secret')).message.text, 'a ******');
  await rejects(t, room.send(member, { kind: 'room.update', wordFilter: { mode: 'mask', words: [] } }), 'forbidden');
  await room.send(owner, { kind: 'room.update', wordFilter: { mode: 'mask', words: [] } });
  t.is((await send(room, owner, 'a secret')).message.text, 'a secret', 'no words: off');
});

/** Spellings of "bad" a reader sees as "bad": an invisible format character inside it, or full-width letters. */
const DISGUISED: ReadonlyArray<readonly [what: string, text: string, masked: string]> = [
  ['U+200B zero-width space', 'b\u200Bad', '***'],
  ['U+2060 word joiner', 'b\u2060ad', '***'],
  ['U+00AD soft hyphen', 'ba\u00ADd', '***'],
  ['U+202E right-to-left override (closed by U+202C)', 'b\u202Ea\u202Cd', '***'],
  ['full-width letters', 'ｂａｄ', '＊＊＊'],
];

test('invisible format characters and full-width letters do not get a word past the mask, in sends, edits and danmaku', async (t) => {
  const { room, owner, member } = await scene({ danmaku: true, wordFilter: { mode: 'mask', words: ['bad'] } });
  const { item } = await room.send(owner, { kind: 'playlist.push', ...media('A') });
  await room.send(owner, { kind: 'playlist.setCurrent', mediaId: item.id });
  for (const [what, word, masked] of DISGUISED) {
    const { message } = await send(room, member, `so ${word} news`);
    t.is(message.text, `so ${masked} news`, `send: ${what}`);
    const { rows } = await bed.pool.query<{ text: string }>('SELECT text FROM chat_messages WHERE id = $1', [message.id]);
    t.is(rows[0]?.text, `so ${masked} news`, `stored: ${what}`);
    const { message: plain } = await send(room, member, 'fine news');
    const edited = await room.send(member, { kind: 'chat.edit', messageId: plain.id, text: `so ${word} news` });
    t.is(edited.message.text, `so ${masked} news`, `edit: ${what}`);
    const { comment } = await room.send(member, { kind: 'danmaku.send', mediaId: item.id, position: 0, text: `${word}!` });
    t.is(comment.text, `${masked}!`, `danmaku: ${what}`);
  }
});

test('invisible format characters and full-width letters do not get a word past block mode, in sends, edits and danmaku', async (t) => {
  const { room, owner, member } = await scene({ danmaku: true, wordFilter: { mode: 'block', words: ['bad'] } });
  const { item } = await room.send(owner, { kind: 'playlist.push', ...media('A') });
  await room.send(owner, { kind: 'playlist.setCurrent', mediaId: item.id });
  const { message: plain } = await send(room, member, 'fine news');
  for (const [what, word] of DISGUISED) {
    const sent = await rejects(t, send(room, member, `so ${word} news`), 'invalid_argument', /a word this room filters/);
    t.is(sent.issues[0]?.key, 'text', `send: ${what}`);
    const edit = await rejects(t, room.send(member, { kind: 'chat.edit', messageId: plain.id, text: `so ${word} news` }), 'invalid_argument');
    t.is(edit.issues[0]?.key, 'text', `edit: ${what}`);
    const comment = await rejects(t, room.send(member, { kind: 'danmaku.send', mediaId: item.id, position: 0, text: word }), 'invalid_argument');
    t.is(comment.issues[0]?.key, 'text', `danmaku: ${what}`);
  }
  t.is(await chatCount(room), 1);
  t.is((await room.send(member, { kind: 'danmaku.list', mediaId: item.id })).comments.length, 0);
  t.is((await room.send(member, { kind: 'chat.history' })).messages[0]?.text, 'fine news', 'the refused edits changed nothing');
});

test('the filter matches on normalised text but stores what was written: full-width punctuation, emoji joiners and soft hyphens elsewhere stay', async (t) => {
  const { room, member } = await scene({ wordFilter: { mode: 'mask', words: ['bad', 'ＢＡＤ ｗｏｒｄ'] } });
  const untouched = ['你好，世界！（测试）', 'a b\u200Badge', 'good\u00ADness 👩\u200D👩\u200D👧 ＡＢＣ', '\u202Bשלום\u202C'];
  for (const text of untouched) t.is((await send(room, member, text)).message.text, text, JSON.stringify(text));
  t.is((await send(room, member, '你好，ｂａｄ！ good\u00ADness')).message.text, '你好，＊＊＊！ good\u00ADness', 'only the word is masked');
  t.is((await send(room, member, 'a BAD\u00A0word')).message.text, 'a ***\u00A0****', 'an entry is matched in its normalised form too');
});
