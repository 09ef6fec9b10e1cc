/** When danmaku comments come due as a player's time moves (web/src/danmaku/schedule.ts). */
import test from 'ava';
import type { DanmakuComment } from '../../../contracts/room/model.js';
import { DanmakuSchedule } from '../../../web/src/danmaku/schedule.js';

const comment = (id: string, position: number): DanmakuComment => ({ id, mediaId: 'm', position, userId: 'u', name: 'U', text: id, createdAt: 1 });

test('playing forward shows each comment once, as its time is passed', (t) => {
  const schedule = new DanmakuSchedule();
  schedule.load([comment('b', 2), comment('a', 1), comment('c', 3)]);
  t.deepEqual(schedule.advance(0.5), [], 'the first reading only sets where we are');
  t.deepEqual(schedule.advance(1.2).map((c) => c.id), ['a']);
  t.deepEqual(schedule.advance(1.2), [], 'paused: nothing new');
  t.deepEqual(schedule.advance(2.4).map((c) => c.id), ['b']);
  t.deepEqual(schedule.advance(3.0).map((c) => c.id), ['c']);
});

test('a jump (seek forward or back) shows nothing of what it skipped', (t) => {
  const schedule = new DanmakuSchedule();
  schedule.load([comment('a', 10), comment('b', 30)]);
  schedule.advance(5);
  t.deepEqual(schedule.advance(31), []);
  t.deepEqual(schedule.advance(9), [], 'back');
  t.deepEqual(schedule.advance(10.2).map((c) => c.id), ['a'], 'and from there on as usual');
});

test('a comment arriving live joins in its place once', (t) => {
  const schedule = new DanmakuSchedule();
  schedule.load([comment('a', 1), comment('c', 3)]);
  t.true(schedule.add(comment('b', 2)));
  t.false(schedule.add(comment('b', 2)));
  t.is(schedule.size, 3);
  schedule.advance(1.5);
  t.deepEqual(schedule.advance(2.5).map((c) => c.id), ['b']);
});
