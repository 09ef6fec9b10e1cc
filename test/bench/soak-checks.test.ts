/**
 * The soak's own judgements (bench/soak/): a check that cannot fail proves nothing, so each is
 * fed a history where it must fail and one where it must pass.
 */
import test from 'ava';
import { auditActivations } from '../../bench/soak/activation-audit.js';
import type { ActivationLine } from '../../bench/soak/activation-line.js';
import { recoveries } from '../../bench/soak/checks.js';
import type { Incarnation } from '../../bench/soak/cluster.js';
import type { Fault } from '../../bench/soak/faults.js';
import type { CommandRecord } from '../../bench/soak/ledger.js';
import { parseOptions } from '../../bench/soak/options.js';

const line = (kind: 'started' | 'ended', replicaId: string, fence: number, at: number, lastTurnAt?: number): ActivationLine => ({
  kind,
  type: 'room',
  id: 'r1',
  fence,
  at,
  lastTurnAt,
  reason: kind === 'ended' ? 'fenced' : undefined,
  replicaId,
});
const incarnation = (replicaId: string, killedAt?: number): Incarnation => ({ replicaId, slot: replicaId, pid: 1, startedAt: 0, readyAt: 1, killedAt, exitedAt: undefined });

test('an older fence that began a turn after a newer one started is an overlap', (t) => {
  const audit = auditActivations([line('started', 'a', 1, 100), line('started', 'b', 2, 200), line('ended', 'a', 1, 300, 250), line('ended', 'b', 2, 400, 390)], [incarnation('a'), incarnation('b')]);
  t.is(audit.overlaps.length, 1);
  t.like(audit.overlaps[0], { id: 'r1', older: { fence: 1, replicaId: 'a', lastTurnAt: 250, bound: 'logged' }, newer: { fence: 2, replicaId: 'b', startedAt: 200 } });
});

test('an older fence whose last turn came before the newer start, or that ran none, is fine', (t) => {
  const handedOver = auditActivations([line('started', 'a', 1, 100), line('ended', 'a', 1, 300, 150), line('started', 'b', 2, 200)], [incarnation('a'), incarnation('b')]);
  t.deepEqual(handedOver.overlaps, []);
  const idle = auditActivations([line('started', 'a', 1, 100), line('ended', 'a', 1, 300), line('started', 'b', 2, 200)], [incarnation('a'), incarnation('b')]);
  t.deepEqual(idle.overlaps, []);
});

test('a killed host is bounded by its kill time; a silent live one is unresolved, not passed', (t) => {
  const killedBefore = auditActivations([line('started', 'a', 1, 100), line('started', 'b', 2, 200)], [incarnation('a', 150), incarnation('b')]);
  t.deepEqual(killedBefore.overlaps, []);
  t.is(killedBefore.unresolved, 0);
  const killedAfter = auditActivations([line('started', 'a', 1, 100), line('started', 'b', 2, 200)], [incarnation('a', 250), incarnation('b')]);
  t.is(killedAfter.overlaps[0]?.older.bound, 'killed');
  const silent = auditActivations([line('started', 'a', 1, 100), line('started', 'b', 2, 200)], [incarnation('a'), incarnation('b')]);
  t.is(silent.unresolved, 1);
});

const command = (sentAt: number, latency: number | undefined, roomId = 'r1'): CommandRecord => ({
  channel: 'ws',
  kind: 'chat.send',
  roomId,
  gateway: 'gateway1',
  sentAt,
  answeredAt: latency === undefined ? undefined : sentAt + latency,
  ok: latency !== undefined,
  code: latency === undefined ? 'timeout' : undefined,
  resends: 0,
  retried: [],
});
const fault = (over: Partial<Fault>): Fault => ({ kind: 'nats', target: 'nats', role: 'dependency', replicaId: undefined, startAt: 10_000, endAt: 11_000, referenceAt: 10_000, error: undefined, ...over });

test('recovery is the first fast answer that starts a stable stretch, from the start or from a SIGCONT', (t) => {
  const records = [command(9_500, 50), command(10_500, 3_000), command(12_000, undefined), command(13_000, 40), command(14_000, 30)];
  const [nats] = recoveries(records, [fault({})], [], 20_000);
  t.is(nats?.recoveryMs, 3_000);
  const [stop] = recoveries(records, [fault({ kind: 'stop', role: 'actors', target: 'host1', replicaId: 'h1', referenceAt: 11_000 })], [line('started', 'h1', 1, 0)], 20_000);
  t.like(stop, { recoveryMs: 2_000, fromStartMs: 3_000 });
  // Rooms not on the hit host do not count.
  const [elsewhere] = recoveries(records, [fault({ kind: 'kill', role: 'actors', target: 'host2', replicaId: 'h2' })], [line('started', 'h1', 1, 0)], 20_000);
  t.like(elsewhere, { affected: 0, recoveryMs: 0 });
  const [never] = recoveries([command(10_500, undefined)], [fault({})], [], 20_000);
  t.is(never?.recoveryMs, undefined);
  // A stall long after a stable recovery is not the fault's.
  const [stalledLater] = recoveries([...records, command(18_000, 2_500)], [fault({})], [], 20_000);
  t.is(stalledLater?.recoveryMs, 3_000);
});

test('options: defaults, and wrong input named precisely', (t) => {
  t.like(parseOptions([]), { durationS: 600, clients: 300, rooms: 200 });
  t.deepEqual(parseOptions(['--faults', 'kill,nats']).faults, ['kill', 'nats']);
  t.throws(() => parseOptions(['--faults', 'kill,flood']), { message: /--faults: unknown fault "flood"/ });
  t.throws(() => parseOptions(['--duration', 'ten']), { message: /--duration must be an integer from 10/ });
  t.throws(() => parseOptions(['--clients', '5', '--rooms', '9']), { message: /--rooms \(9\) must be at most --clients \(5\)/ });
});

test('options: faults of one NATS node come with a NATS cluster, in either order; a PostgreSQL failover with either', (t) => {
  t.deepEqual(parseOptions([]).faults, ['kill', 'stop', 'term', 'nats', 'postgres', 'redis', 'temporal', 'postgres-failover']);
  t.like(parseOptions(['--nats-cluster', '3']), {
    natsNodes: 3,
    faults: ['kill', 'stop', 'term', 'nats', 'postgres', 'redis', 'temporal', 'nats-node', 'nats-rolling', 'nats-partition', 'postgres-failover'],
  });
  t.deepEqual(parseOptions(['--faults', 'postgres-failover']).faults, ['postgres-failover']);
  t.deepEqual(parseOptions(['--faults', 'nats-node,kill', '--nats-cluster', '3']).faults, ['nats-node', 'kill']);
  t.throws(() => parseOptions(['--faults', 'kill,nats-rolling']), { message: /--faults nats-rolling: a fault of one NATS node needs --nats-cluster 3/ });
  t.throws(() => parseOptions(['--nats-cluster', '2']), { message: /--nats-cluster must be 1 or 3, not "2"/ });
});
