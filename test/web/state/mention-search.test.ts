/**
 * A crowd's mention candidates searched on the server (web/src/state/mention-search.ts): one
 * request once typing pauses, only the answer to the latest text kept, a failed search offering
 * what is known; and the composer's merge of the named members with those found.
 */
import test from 'ava';
import type { MentionCandidate } from '../../../contracts/room/mentions.js';
import { MentionSearch, withFound } from '../../../web/src/state/mention-search.js';
import { suggestions } from '../../../web/src/views/room/chat/mention-suggestions.js';

const fan = (n: number): MentionCandidate => ({ id: `fan-${n}`, name: `Fan ${n}` });

/** A fake endpoint: each request waits until the test answers it. */
function server() {
  const asked: Array<{ text: string; answer: (members: MentionCandidate[]) => void; fail: (error: unknown) => void }> = [];
  const search = (text: string) => new Promise<MentionCandidate[]>((answer, fail) => asked.push({ text, answer, fail }));
  return { asked, search };
}

/** Lets the debounce timer (0 ms here) and the answers' promise callbacks run. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 5));

test('typing that pauses asks once, with the latest text; nothing is asked for a bare @', async (t) => {
  const { asked, search } = server();
  const mentions = new MentionSearch(search, 0);
  mentions.ask('');
  mentions.ask(undefined);
  await settle();
  t.is(asked.length, 0);
  mentions.ask('f');
  mentions.ask('fa');
  mentions.ask('fan');
  await settle();
  t.deepEqual(
    asked.map((request) => request.text),
    ['fan'],
  );
  asked[0]!.answer([fan(1), fan(2)]);
  await settle();
  t.deepEqual(mentions.members.value, [fan(1), fan(2)]);
});

test('an answer to an older text never replaces a newer one; a failed search keeps what was found', async (t) => {
  const { asked, search } = server();
  const mentions = new MentionSearch(search, 0);
  mentions.ask('fan 1');
  await settle();
  mentions.ask('fan 2');
  await settle();
  asked[1]!.answer([fan(2)]);
  await settle();
  asked[0]!.answer([fan(1)]);
  await settle();
  t.deepEqual(mentions.members.value, [fan(2)], 'the late answer for "fan 1" is dropped');

  mentions.ask('fan 3');
  await settle();
  asked[2]!.fail(new Error('rate limited'));
  await settle();
  t.deepEqual(mentions.members.value, [fan(2)]);

  mentions.ask('fan 4');
  mentions.stop();
  await settle();
  t.is(asked.length, 3, 'a stopped search asks nothing more');
});

test('the composer offers the named members first, then those found, once each, by what was typed', (t) => {
  const named = [{ id: 'owner', name: 'Fanny the owner' }, fan(7)];
  const offered = suggestions({ start: 0, prefix: 'fan' }, withFound(named, [fan(7), fan(8), { id: 'x', name: 'Not a fan' }]));
  t.deepEqual(
    offered.map((member) => member.id),
    ['owner', 'fan-7', 'fan-8'],
  );
  t.deepEqual(withFound(named, []), named);
});
