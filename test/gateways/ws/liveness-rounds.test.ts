/**
 * Liveness pings are spread over their interval (gateways/ws/liveness-rounds.ts): every socket
 * is still pinged exactly once per interval, so one that does not answer gets a whole interval,
 * and no turn pings more than its share.
 */
import test from 'ava';
import { LivenessRounds } from '../../../gateways/ws/liveness-rounds.js';

class Item {
  probes = 0;
  probe(): void {
    this.probes += 1;
  }
}

test('each socket is pinged once per interval, a slice per turn, as sockets come and go', (t) => {
  // The timer is never due here: the test takes the timer's turns itself.
  const rounds = new LivenessRounds<Item>(3_600_000, 10);
  t.teardown(() => rounds.stop());
  const items = Array.from({ length: 95 }, () => new Item());
  for (const item of items) rounds.add(item);

  const perTurn: number[] = [];
  for (let turn = 0; turn < 10; turn += 1) {
    const before = items.reduce((sum, item) => sum + item.probes, 0);
    rounds.probeNextSlice();
    perTurn.push(items.reduce((sum, item) => sum + item.probes, 0) - before);
  }
  t.true(items.every((item) => item.probes === 1), 'one ping per socket per interval');
  t.true(Math.max(...perTurn) <= 10, `at most a tenth of the sockets per turn: ${perTurn.join(', ')}`);

  // Some leave and others join mid-interval: those left are pinged no more, the rest once per interval.
  const gone = items.splice(0, 30);
  for (const item of gone) rounds.delete(item);
  const joined = Array.from({ length: 12 }, () => new Item());
  for (const item of joined) rounds.add(item);
  for (let turn = 0; turn < 10; turn += 1) rounds.probeNextSlice();
  t.true(gone.every((item) => item.probes === 1));
  t.true(items.every((item) => item.probes === 2));
  t.true(joined.every((item) => item.probes === 1));
});
