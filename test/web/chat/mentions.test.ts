/** Mentions in text (contracts/room/mentions.ts, shared by the room and the client) and the composer's offer. */
import test from 'ava';
import { findMentions, mentionedIds } from '../../../contracts/room/mentions.js';
import { insertMention, mentionQuery, suggestions } from '../../../web/src/views/room/chat/mention-suggestions.js';

const members = [
  { id: 'ann', name: 'Ann' },
  { id: 'anna', name: 'Anna' },
  { id: 'bob', name: 'Bob Stone' },
  { id: 'zoe', name: 'Zoë' },
];

test('a mention is @ and a shown name, case-insensitive; the longest name wins; it ends where the word ends', (t) => {
  t.deepEqual(findMentions('@anna and @Ann, hi @bob stone!', members), [
    { start: 0, end: 5, id: 'anna' },
    { start: 10, end: 14, id: 'ann' },
    { start: 19, end: 29, id: 'bob' },
  ]);
  t.deepEqual(findMentions('@Annabel', members), [], 'a longer word is not a mention of a prefix of it');
  t.deepEqual(findMentions('mail ann@example.com', members), [], 'an @ inside a word is an address');
  t.deepEqual(findMentions('@Zoë: hi', members).map((span) => span.id), ['zoe']);
  t.deepEqual(findMentions('nothing here', members), []);
});

test('the ids mentioned: distinct, in order, without the sender, capped', (t) => {
  t.deepEqual(mentionedIds('@Bob Stone @Ann @bob stone @Anna', members, 'ann', 10), ['bob', 'anna']);
  t.deepEqual(mentionedIds('@Ann @Anna @Zoë', members, 'nobody', 2), ['ann', 'anna']);
});

test('the composer offers members by the prefix typed after @, and puts the chosen name in', (t) => {
  const text = 'hello @an';
  const query = mentionQuery(text, text.length);
  t.deepEqual(query, { start: 6, prefix: 'an' });
  t.deepEqual(suggestions(query!, members).map((m) => m.id), ['ann', 'anna']);
  t.deepEqual(insertMention(text, text.length, query!, 'Anna'), { text: 'hello @Anna ', caret: 12 });
  t.is(mentionQuery('mail ann@ex', 11), undefined, 'not inside a word');
  t.is(mentionQuery('no at sign', 10), undefined);
  t.deepEqual(suggestions(mentionQuery('@', 1)!, members).length, 4, 'a bare @ offers everyone (up to six)');
});
