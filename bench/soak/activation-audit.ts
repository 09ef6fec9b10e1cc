/**
 * Single activation, from the actor hosts' `activation started` / `activation ended` lines
 * (actors/runtime/activation.ts): for every room, no activation with an older fence may run a
 * turn after one with a newer fence started. An ended activation says when its last turn ran
 * (a stopped host that resumes refuses its buffered commands by the liveness check, so that time
 * is the truth); one that never logged its end was on a host the soak killed (its kill time
 * bounds its last turn) or on a host still running at the end (reported as unresolved; the
 * soak drains every host at the end so that none is).
 * The same idea as test/fixtures/activation-audit.ts for the counter actor, on log lines.
 */
import type { ActivationLine } from './activation-line.js';
import type { Incarnation } from './cluster.js';

export interface ActivationOverlap {
  type: string;
  id: string;
  older: { fence: number; replicaId: string; lastTurnAt: number; bound: 'logged' | 'killed' };
  newer: { fence: number; replicaId: string; startedAt: number };
}

export interface ActivationAudit {
  activations: number;
  overlaps: ActivationOverlap[];
  /** Superseded activations with neither an end line nor a killed host: not provable either way. */
  unresolved: number;
}

interface Activation {
  type: string;
  id: string;
  fence: number;
  replicaId: string;
  startedAt: number;
  /** Latest moment a turn may have started; undefined when unknown. */
  lastTurnAt: number | undefined;
  bound: 'logged' | 'killed' | undefined;
}

export function auditActivations(lines: readonly ActivationLine[], incarnations: readonly Incarnation[]): ActivationAudit {
  const killedAt = new Map(incarnations.filter((i) => i.killedAt !== undefined).map((i) => [i.replicaId, i.killedAt!]));
  const byKey = new Map<string, Activation>();
  const keyOf = (line: ActivationLine): string => `${line.type}\u0000${line.id}\u0000${line.fence}\u0000${line.replicaId}`;
  for (const line of lines) {
    if (line.kind !== 'started') continue;
    byKey.set(keyOf(line), { type: line.type, id: line.id, fence: line.fence, replicaId: line.replicaId, startedAt: line.at, lastTurnAt: undefined, bound: undefined });
  }
  for (const line of lines) {
    if (line.kind !== 'ended') continue;
    const activation = byKey.get(keyOf(line));
    if (!activation) continue;
    // No turn at all: it "ran" nothing, so it cannot overlap anything.
    activation.lastTurnAt = line.lastTurnAt ?? Number.NEGATIVE_INFINITY;
    activation.bound = 'logged';
  }
  for (const activation of byKey.values()) {
    const killed = killedAt.get(activation.replicaId);
    if (activation.bound === undefined && killed !== undefined) {
      activation.lastTurnAt = killed;
      activation.bound = 'killed';
    }
  }
  const byRoom = new Map<string, Activation[]>();
  for (const activation of byKey.values()) {
    const key = `${activation.type}\u0000${activation.id}`;
    byRoom.set(key, [...(byRoom.get(key) ?? []), activation]);
  }
  const overlaps: ActivationOverlap[] = [];
  let unresolved = 0;
  for (const list of byRoom.values()) {
    list.sort((a, b) => a.fence - b.fence);
    for (let i = 0; i < list.length - 1; i++) {
      const older = list[i]!;
      if (older.lastTurnAt === undefined) {
        unresolved += 1;
        continue;
      }
      for (const newer of list.slice(i + 1)) {
        if (newer.fence === older.fence || older.lastTurnAt < newer.startedAt) continue;
        overlaps.push({
          type: older.type,
          id: older.id,
          older: { fence: older.fence, replicaId: older.replicaId, lastTurnAt: older.lastTurnAt, bound: older.bound! },
          newer: { fence: newer.fence, replicaId: newer.replicaId, startedAt: newer.startedAt },
        });
        break;
      }
    }
  }
  return { activations: byKey.size, overlaps, unresolved };
}
