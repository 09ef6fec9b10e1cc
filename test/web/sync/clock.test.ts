/** The clock estimator: the minimum-rtt filter, outliers, the window, the ping schedule, reset. */
import test from 'ava';
import { ClockEstimator } from '../../../web/src/sync/clock.js';

test('the estimate is the offset of the minimum-rtt sample; a slow outlier is ignored', (t) => {
  const clock = new ClockEstimator({ random: () => 0.5 });
  t.is(clock.offset, null);
  t.is(clock.serverTime(1000), null);
  clock.add({ offset: 100, rtt: 50 });
  clock.add({ offset: 130, rtt: 20 });
  clock.add({ offset: 90, rtt: 300 });
  t.is(clock.offset, 130);
  t.is(clock.rtt, 20);
  t.false(clock.add({ offset: 5000, rtt: 4000 }), 'a stalled exchange is dropped');
  t.false(clock.add({ offset: Number.NaN, rtt: 10 }));
  t.false(clock.add({ offset: 1, rtt: -1 }));
  t.is(clock.sampleCount, 3);
  t.is(clock.offset, 130);
  t.is(clock.serverTime(1000), 1130);
  t.is(clock.localTime(1130), 1000);
});

test('only the last 8 samples count: an old fast sample ages out', (t) => {
  const clock = new ClockEstimator();
  clock.add({ offset: 10, rtt: 5 });
  for (let i = 0; i < 7; i++) clock.add({ offset: 20 + i, rtt: 40 - i });
  t.is(clock.offset, 10);
  clock.add({ offset: 50, rtt: 30 });
  t.is(clock.sampleCount, 8);
  t.is(clock.offset, 50, 'the best of the remaining eight (rtt 30)');
});

test('a join burst every 150 ms until 5 samples, then a steady ping every 10-15 s, jittered by the injected random', (t) => {
  const clock = new ClockEstimator({ random: () => 0.5 });
  t.true(clock.needsBurst);
  t.true(clock.pingDue(0), 'the first ping goes at once');
  let now = 1000;
  for (let i = 0; i < 5; i++) {
    t.true(clock.pingDue(now));
    clock.pinged(now);
    t.false(clock.pingDue(now + 149));
    t.is(clock.nextPingAt(), now + 150);
    clock.add({ offset: 7, rtt: 30 + i });
    now += 150;
  }
  t.false(clock.needsBurst);
  const last = now - 150;
  t.is(clock.nextPingAt(), last + 12_500);
  const low = new ClockEstimator({ random: () => 0 });
  const high = new ClockEstimator({ random: () => 0.9999999 });
  for (const c of [low, high]) {
    for (let i = 0; i < 5; i++) c.add({ offset: 0, rtt: 10 });
    c.pinged(0);
  }
  t.is(low.nextPingAt(), 10_000);
  t.true(high.nextPingAt() < 15_000 && high.nextPingAt() > 14_999);
});

test('reset (reconnect) forgets the samples and starts a new burst', (t) => {
  const clock = new ClockEstimator();
  for (let i = 0; i < 6; i++) clock.add({ offset: 3, rtt: 10 });
  clock.pinged(500);
  clock.reset();
  t.is(clock.offset, null);
  t.true(clock.needsBurst);
  t.true(clock.pingDue(501));
  t.true(clock.add({ offset: 9, rtt: 5000 }), 'with no estimate, even a slow sample is better than none');
  t.is(clock.offset, 9);
});
