import test from 'ava';
import { Mailbox } from '../../../actors/runtime/mailbox.js';
import { commandSubject, hostKey, hostsBucketName, ownersBucketName } from '../../../actors/runtime/names.js';
import { RecentCommands } from '../../../actors/runtime/recent-commands.js';


test('the mailbox is first in, first out, and refuses beyond its capacity unless forced', (t) => {
  const mailbox = new Mailbox<number>(3);
  t.true(mailbox.offer(1));
  t.true(mailbox.offer(2));
  t.true(mailbox.offer(3));
  t.false(mailbox.offer(4), 'full');
  t.true(mailbox.offer(5, true), 'self-scheduled work is never refused');
  t.is(mailbox.size, 4);
  t.deepEqual([mailbox.take(), mailbox.take()], [1, 2]);
  t.true(mailbox.offer(6));
  t.deepEqual(mailbox.clear(), [3, 5, 6]);
  t.is(mailbox.take(), undefined);
});

test('the mailbox keeps its order across the compaction of a long run', (t) => {
  const mailbox = new Mailbox<number>(100_000);
  let next = 0;
  const out: number[] = [];
  // Interleave: the head index crosses the compaction threshold several times.
  for (let round = 0; round < 10; round++) {
    for (let i = 0; i < 3_000; i++) mailbox.offer(next++);
    for (let i = 0; i < 2_500; i++) out.push(mailbox.take() as number);
  }
  while (mailbox.size > 0) out.push(mailbox.take() as number);
  t.deepEqual(out, Array.from({ length: next }, (_, i) => i));
});

test('a retried command id waits for the first execution, then gets its reply', (t) => {
  const recent = new RecentCommands(10, 1 << 20);
  const deadline = Date.now() + 60_000;
  t.deepEqual(recent.seen('c1', 'inbox.1'), { state: 'new' });
  recent.begin('c1', 'inbox.1', deadline);
  t.deepEqual(recent.seen('c1', 'inbox.2'), { state: 'pending' });
  t.deepEqual(recent.seen('c1', 'inbox.2'), { state: 'pending' });
  t.deepEqual(recent.complete('c1', 'reply'), ['inbox.1', 'inbox.2'], 'every try waiting gets the reply, once');
  t.deepEqual(recent.seen('c1', 'inbox.3'), { state: 'done', reply: 'reply' });
});

test('finished command ids are forgotten beyond the limit or past their deadline, pending ones never', (t) => {
  const recent = new RecentCommands(2, 1 << 20);
  const later = Date.now() + 60_000;
  recent.begin('pending', 'inbox.p', later);
  recent.begin('old', 'inbox.o', later);
  recent.complete('old', 'o');
  recent.begin('expired', 'inbox.e', Date.now() - 1);
  recent.complete('expired', 'e');
  recent.begin('new', 'inbox.n', later);
  recent.complete('new', 'n');
  t.is(recent.seen('pending', undefined).state, 'pending', 'a pending command is kept whatever the limit');
  t.is(recent.seen('old', undefined).state, 'new', 'the oldest finished entry went first');
  t.is(recent.seen('expired', undefined).state, 'new', 'an entry past its deadline went');
  t.is(recent.seen('new', undefined).state, 'done');
  t.deepEqual(recent.forget('pending'), ['inbox.p']);
});

test('remembered replies are bounded in bytes (the newest is always kept) and expire on time without another command', (t) => {
  const recent = new RecentCommands(512, 1_000);
  const later = Date.now() + 60_000;
  for (let i = 0; i < 5; i++) {
    recent.begin(`big${i}`, undefined, later);
    recent.complete(`big${i}`, 'x'.repeat(400));
  }
  t.true(recent.heldChars <= 1_000, `held ${recent.heldChars} characters`);
  t.is(recent.seen('big4', undefined).state, 'done', 'the newest reply stays');
  t.is(recent.seen('big0', undefined).state, 'new', 'the oldest went first');
  recent.begin('huge', undefined, later);
  recent.complete('huge', 'y'.repeat(5_000));
  t.is(recent.seen('huge', undefined).state, 'done', 'one reply larger than the bound is still kept alone');
  t.is(recent.size, 1);

  const expiring = new RecentCommands(512, 1 << 20);
  const soon = Date.now() + 1_000;
  expiring.begin('a', undefined, soon);
  expiring.complete('a', 'reply');
  expiring.begin('b', undefined, soon + 10_000);
  t.is(expiring.seen('a', undefined).state, 'done');
  expiring.expire(soon + 1);
  t.is(expiring.seen('a', undefined).state, 'new', 'forgotten once its deadline passed');
  t.is(expiring.seen('b', undefined).state, 'pending', 'a pending command is never expired');
  t.is(expiring.heldChars, 0);
});

test('replies restored from an earlier activation answer retries and never replace a newer entry', (t) => {
  const recent = new RecentCommands(512, 1 << 20);
  const later = Date.now() + 60_000;
  recent.restore('c1', 'stored', later);
  t.deepEqual(recent.seen('c1', 'inbox.1'), { state: 'done', reply: 'stored' });
  recent.begin('c2', 'inbox.2', later);
  recent.restore('c2', 'stale', later);
  t.is(recent.seen('c2', undefined).state, 'pending');
});

test('names: subjects per actor, bucket names valid for any subject prefix', (t) => {
  t.is(commandSubject('svc', 'room', 'r1'), 'svc.room.r1.cmd');
  t.is(hostsBucketName('svc'), 'svc_hosts');
  t.is(ownersBucketName('svc', 'room'), 'svc_owners_room');
  const dotted = ownersBucketName('prod.svc', 'room');
  t.regex(dotted, /^prod_svc_[0-9a-f]{8}_owners_room$/);
  t.not(hostsBucketName('prod.svc'), hostsBucketName('prod_svc'), 'a dotted prefix does not collide with its underscored twin');
  t.is(hostKey('api-7f9c-1234'), 'api-7f9c-1234');
  t.regex(hostKey('host with spaces'), /^host_with_spaces_[0-9a-f]{8}$/);
});
