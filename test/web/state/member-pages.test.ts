/**
 * A crowd's member list read a page at a time (web/src/state/member-pages.ts): the cursor of one
 * page asks for the next, the last page ends "more", and an answer for an older filter never
 * replaces a newer one.
 */
import test from 'ava';
import type { MemberView } from '../../../contracts/room/model.js';
import { MEMBER_PAGE_SIZE, MemberPages, type MemberPage, type MemberPageQuery } from '../../../web/src/state/member-pages.js';

const member = (userId: string): MemberView => ({ userId, name: userId, role: 'member', status: 'active', guest: false, isOwner: false, joinedAt: 1, online: true, player: null, permissionOverride: null });
const page = (ids: string[], total: number, nextCursor?: string): MemberPage => ({ members: ids.map(member), total, ...(nextCursor ? { nextCursor } : {}) });

/** A fake endpoint: each request waits until the test answers it. */
function server() {
  const asked: Array<{ query: MemberPageQuery; answer: (page: MemberPage) => void; fail: (error: unknown) => void }> = [];
  const fetchPage = (query: MemberPageQuery) => new Promise<MemberPage>((answer, fail) => asked.push({ query, answer, fail }));
  return { asked, pages: new MemberPages(fetchPage) };
}

const ids = (pages: MemberPages) => pages.members.value?.map((entry) => entry.userId);

test('each next page is asked for with the last cursor, and the last page ends "more"', async (t) => {
  const { asked, pages } = server();
  const first = pages.show({ q: '', onlineOnly: false });
  t.true(pages.loading.value);
  t.deepEqual(asked[0]!.query, { limit: MEMBER_PAGE_SIZE });
  asked[0]!.answer(page(['u1', 'u2'], 3, 'u2'));
  await first;
  t.deepEqual(ids(pages), ['u1', 'u2']);
  t.is(pages.total.value, 3);
  t.true(pages.hasMore.value);
  t.false(pages.loading.value);

  const second = pages.more();
  void pages.more();
  t.is(asked.length, 2, 'a second "more" while one is on its way asks nothing');
  t.deepEqual(asked[1]!.query, { limit: MEMBER_PAGE_SIZE, cursor: 'u2' });
  asked[1]!.answer(page(['u3'], 3));
  await second;
  t.deepEqual(ids(pages), ['u1', 'u2', 'u3']);
  t.false(pages.hasMore.value);

  await pages.more();
  t.is(asked.length, 2, 'after the last page there is nothing more to ask');
});

test('the filter goes with every request, the next pages included', async (t) => {
  const { asked, pages } = server();
  const first = pages.show({ q: 'Ann', onlineOnly: true });
  t.deepEqual(asked[0]!.query, { limit: MEMBER_PAGE_SIZE, q: 'Ann', online: 'true' });
  asked[0]!.answer(page(['u1'], 2, 'u1'));
  await first;
  const next = pages.more();
  t.deepEqual(asked[1]!.query, { limit: MEMBER_PAGE_SIZE, cursor: 'u1', q: 'Ann', online: 'true' });
  asked[1]!.answer(page(['u2'], 2));
  await next;
});

test("an old search's late answer does not replace the newer one's, whichever arrives first", async (t) => {
  for (const order of [[0, 1], [1, 0]] as const) {
    const { asked, pages } = server();
    const reads = [pages.show({ q: 'a', onlineOnly: false }), pages.show({ q: 'ab', onlineOnly: false })];
    const answers = [page(['old'], 10, 'old'), page(['new'], 1)];
    for (const index of order) {
      asked[index]!.answer(answers[index]!);
      await reads[index];
    }
    t.deepEqual(ids(pages), ['new'], `answered in the order ${order.join()}`);
    t.is(pages.total.value, 1);
    t.false(pages.hasMore.value, "the old answer's cursor is not kept either");
    t.false(pages.loading.value);
  }
});

test('a next page asked for under the old filter is dropped when the filter changes', async (t) => {
  const { asked, pages } = server();
  const first = pages.show({ q: '', onlineOnly: false });
  asked[0]!.answer(page(['u1'], 5, 'u1'));
  await first;
  const more = pages.more();
  const online = pages.show({ q: '', onlineOnly: true });
  asked[2]!.answer(page(['u4'], 1));
  await online;
  asked[1]!.answer(page(['u2', 'u3'], 5, 'u3'));
  await more;
  t.deepEqual(ids(pages), ['u4']);
  t.false(pages.hasMore.value);
});

test('a refresh reads again as many pages as are shown and replaces them', async (t) => {
  const { asked, pages } = server();
  const first = pages.show({ q: '', onlineOnly: false });
  asked[0]!.answer(page(['u1', 'u2'], 5, 'u2'));
  await first;
  const second = pages.more();
  asked[1]!.answer(page(['u3', 'u4'], 5, 'u4'));
  await second;

  const refresh = pages.refresh();
  t.deepEqual(asked[2]!.query, { limit: MEMBER_PAGE_SIZE });
  asked[2]!.answer(page(['u1', 'u3'], 4, 'u3'));
  await new Promise(setImmediate);
  t.deepEqual(ids(pages), ['u1', 'u2', 'u3', 'u4'], 'the list changes once, when every page is in');
  t.deepEqual(asked[3]!.query, { limit: MEMBER_PAGE_SIZE, cursor: 'u3' });
  asked[3]!.answer(page(['u4', 'u5'], 4, 'u5'));
  await refresh;
  t.is(asked.length, 4, 'two pages were shown, so two are read');
  t.deepEqual(ids(pages), ['u1', 'u3', 'u4', 'u5']);
  t.is(pages.total.value, 4);
  t.true(pages.hasMore.value);
});

test('a failed read keeps what was shown and its error; the next read clears it', async (t) => {
  const { asked, pages } = server();
  const first = pages.show({ q: '', onlineOnly: false });
  asked[0]!.answer(page(['u1'], 2, 'u1'));
  await first;
  const more = pages.more();
  const problem = new Error('unavailable');
  asked[1]!.fail(problem);
  await more;
  t.is(pages.error.value, problem);
  t.false(pages.loading.value);
  t.deepEqual(ids(pages), ['u1']);
  t.true(pages.hasMore.value, 'the same page can be asked for again');

  const again = pages.more();
  t.is(pages.error.value, null);
  t.deepEqual(asked[2]!.query, { limit: MEMBER_PAGE_SIZE, cursor: 'u1' });
  asked[2]!.answer(page(['u2'], 2));
  await again;
  t.deepEqual(ids(pages), ['u1', 'u2']);
});
