/**
 * The soak's figures and zero-checks, computed from the ledger, the fault record, the hosts'
 * activation lines and PostgreSQL itself.
 */
import type { ActivationLine } from './activation-line.js';
import type { Fault } from './faults.js';
import { okLatency, type CommandRecord } from './ledger.js';
import { sql } from './setup.js';

/** Commands sent this long after a fault started count toward its kind's availability. */
export const FAULT_WINDOW_MS = 10_000;

export interface Availability {
  commands: number;
  within1s: number;
  within2s: number;
}

export function availability(records: readonly CommandRecord[]): Availability {
  const latencies = records.map(okLatency);
  return { commands: records.length, within1s: latencies.filter((ms) => ms <= 1_000).length, within2s: latencies.filter((ms) => ms <= 2_000).length };
}

export interface FaultAvailability extends Availability {
  faults: number;
  /** The lowest share ok within 2 s among the windows of single faults of the kind. */
  worstWithin2s: number;
}

/** Commands sent within FAULT_WINDOW_MS of the start of a fault of each kind; and the worst single fault's window. */
export function availabilityByFault(records: readonly CommandRecord[], faults: readonly Fault[]): Map<string, FaultAvailability> {
  const out = new Map<string, FaultAvailability>();
  const inWindowOf = (fault: Fault) => (record: CommandRecord) => record.sentAt >= fault.startAt && record.sentAt < fault.startAt + FAULT_WINDOW_MS;
  for (const kind of new Set(faults.map((fault) => fault.kind))) {
    const ofKind = faults.filter((fault) => fault.kind === kind);
    const inWindow = records.filter((record) => ofKind.some((fault) => inWindowOf(fault)(record)));
    const shares = ofKind.map((fault) => availability(records.filter(inWindowOf(fault)))).map((a) => (a.commands === 0 ? 1 : a.within2s / a.commands));
    out.set(kind, { ...availability(inWindow), faults: ofKind.length, worstWithin2s: Math.min(...shares) });
  }
  return out;
}

export interface Recovery {
  fault: Fault;
  /** Commands the fault could touch (its host's rooms, its gateway's callers, or all for a dependency). */
  affected: number;
  /** ms from the reference until affected commands were answered ok within 1 s again; undefined: not within the window. */
  recoveryMs: number | undefined;
  /** The same from the fault's start (differs for a SIGSTOP, whose reference is its end). */
  fromStartMs: number | undefined;
  windowMs: number;
}

/** A recovery must hold: this long of commands it could touch all answered ok within 1 s. */
export const STABLE_MS = 3_000;

/**
 * Recovery of one fault: among the commands it could touch that were sent from its start until
 * the next fault (or the end), the first one answered ok within 1 s that begins STABLE_MS of
 * such answers only; its send time minus the fault's reference (start, or SIGCONT for a stop).
 * Asking for a stable stretch keeps an unrelated stall later in the window (this machine is
 * shared) from being charged to the fault.
 */
export function recoveries(records: readonly CommandRecord[], faults: readonly Fault[], activations: readonly ActivationLine[], runEnd: number): Recovery[] {
  return faults.map((fault, i) => {
    const windowEnd = faults[i + 1]?.startAt ?? runEnd;
    const touches = affectedBy(fault, activations);
    const affected = records.filter((record) => record.sentAt >= fault.startAt && record.sentAt < windowEnd && touches(record)).sort((a, b) => a.sentAt - b.sentAt);
    const windowMs = windowEnd - fault.referenceAt;
    // Nothing it could touch (a worker's fault): nothing to recover.
    if (affected.length === 0) return { fault, affected: 0, recoveryMs: 0, fromStartMs: 0, windowMs };
    const good = (record: CommandRecord): boolean => okLatency(record) <= 1_000;
    let recoveredAt: number | undefined;
    for (let k = 0; k < affected.length && recoveredAt === undefined; k++) {
      const from = affected[k]!.sentAt;
      if (from < fault.referenceAt && fault.referenceAt !== fault.startAt) continue;
      let stable = good(affected[k]!);
      for (let j = k + 1; stable && j < affected.length && affected[j]!.sentAt < from + STABLE_MS; j++) stable = good(affected[j]!);
      if (stable) recoveredAt = from;
    }
    if (recoveredAt === undefined) return { fault, affected: affected.length, recoveryMs: undefined, fromStartMs: undefined, windowMs };
    return { fault, affected: affected.length, recoveryMs: Math.max(0, recoveredAt - fault.referenceAt), fromStartMs: Math.max(0, recoveredAt - fault.startAt), windowMs };
  });
}

function affectedBy(fault: Fault, activations: readonly ActivationLine[]): (record: CommandRecord) => boolean {
  if (fault.role === 'dependency') return () => true;
  if (fault.role === 'gateway') return (record) => record.gateway === fault.target;
  if (fault.role === 'worker') return () => false;
  // The rooms active on the host's incarnation when the fault began.
  const rooms = new Set<string>();
  for (const line of activations) {
    if (line.replicaId !== fault.replicaId || line.at > fault.startAt) continue;
    if (line.kind === 'started') rooms.add(line.id);
    else rooms.delete(line.id);
  }
  return (record) => rooms.has(record.roomId);
}

export interface StoredWrites {
  /** Markers acknowledged ok yet not in their table. */
  ackedMissing: string[];
  /** Markers with more than one row. */
  doubled: Array<{ marker: string; rows: number }>;
  sent: number;
  acked: number;
}

/** Chat texts (chat_messages.text) or playlist titles (room_playlist.title) against PostgreSQL. */
export async function storedWrites(databaseUrl: string, records: readonly CommandRecord[], table: 'chat_messages' | 'room_playlist', column: 'text' | 'title'): Promise<StoredWrites> {
  const marked = records.filter((record) => record.marker !== undefined);
  const markers = marked.map((record) => record.marker!);
  const rows = await sql<{ marker: string; rows: string }>(databaseUrl, `SELECT ${column} AS marker, count(*) AS rows FROM ${table} WHERE ${column} = ANY($1) GROUP BY ${column}`, [markers]);
  const counts = new Map(rows.map((row) => [row.marker, Number(row.rows)]));
  const acked = marked.filter((record) => record.ok);
  return {
    ackedMissing: acked.filter((record) => !counts.has(record.marker!)).map((record) => record.marker!),
    doubled: [...counts].filter(([, n]) => n > 1).map(([marker, n]) => ({ marker, rows: n })),
    sent: marked.length,
    acked: acked.length,
  };
}
