/** The soak's closing table: figures a lead can paste into a closing note, and the zero-checks. */
import type { ActivationAudit } from './activation-audit.js';
import type { Availability, FaultAvailability, Recovery, StoredWrites } from './checks.js';
import type { Ledger } from './ledger.js';
import type { SoakOptions } from './options.js';
import type { ReviewOutcome } from './reviews.js';

export interface SoakResult {
  options: SoakOptions;
  seconds: number;
  overall: Availability;
  byChannel: Map<string, Availability>;
  byFault: Map<string, FaultAvailability>;
  recoveries: Recovery[];
  chat: StoredWrites;
  playlist: StoredWrites;
  ledger: Ledger;
  audit: ActivationAudit;
  reviews: ReviewOutcome;
  notInRoom: number;
  errorCodes: Map<string, number>;
  restarts: number;
}

export interface ZeroCheck {
  name: string;
  count: number;
  detail: string;
}

const pct = (part: number, whole: number): string => (whole === 0 ? '-' : `${((100 * part) / whole).toFixed(2)} %`);
const secs = (ms: number | undefined): string => (ms === undefined ? '-' : `${(ms / 1000).toFixed(2)} s`);

export function zeroChecks(result: SoakResult): ZeroCheck[] {
  const first = <T>(items: readonly T[], show: (item: T) => string): string => (items.length === 0 ? '' : `e.g. ${show(items[0]!)}`);
  return [
    { name: 'chat messages acknowledged but not in PostgreSQL', count: result.chat.ackedMissing.length, detail: first(result.chat.ackedMissing, String) },
    { name: 'playlist adds acknowledged but not in PostgreSQL', count: result.playlist.ackedMissing.length, detail: first(result.playlist.ackedMissing, String) },
    {
      name: 'command ids applied twice (chat texts, playlist titles)',
      count: result.chat.doubled.length + result.playlist.doubled.length,
      detail: first([...result.chat.doubled, ...result.playlist.doubled], (d) => `${d.marker} x${d.rows}`),
    },
    { name: 'sockets that saw a room seq go backwards', count: new Set(result.ledger.sockets.backwards.map((b) => b.client)).size, detail: first(result.ledger.sockets.backwards, (b) => `client ${b.client} room ${b.roomId}: ${b.seq} after ${b.after}`) },
    {
      name: 'two activations of one room overlapping',
      count: result.audit.overlaps.length,
      detail: first(result.audit.overlaps, (o) => `${o.id}: fence ${o.older.fence} on ${o.older.replicaId} ran at ${o.older.lastTurnAt} (${o.older.bound}) after fence ${o.newer.fence} on ${o.newer.replicaId} started at ${o.newer.startedAt}`),
    },
    { name: 'reviews lost', count: result.reviews.lost.length, detail: first(result.reviews.lost, (l) => `${l.roomId} wanted ${l.want}: workflow ${l.workflow}, room ${l.room}`) },
    { name: 'reviews decided twice', count: result.reviews.twice.length, detail: first(result.reviews.twice, (t) => `${t.roomId}: ${t.detail}`) },
    { name: 'clients that never got back into their room', count: result.notInRoom, detail: '' },
  ];
}

export function printReport(result: SoakResult, print: (line: string) => void = console.log): ZeroCheck[] {
  const { options } = result;
  print('');
  print(`## Soak: ${result.seconds.toFixed(0)} s, ${options.clients} sockets in ${options.rooms} rooms, faults ${options.faults.join(',') || 'none'}, seed ${options.seed}`);
  print('');
  print('| commands | n | ok within 1 s | ok within 2 s | worst single fault, ok within 2 s |');
  print('|---|---:|---:|---:|---:|');
  const row = (label: string, a: Availability, worst = ''): void => print(`| ${label} | ${a.commands} | ${pct(a.within1s, a.commands)} | ${pct(a.within2s, a.commands)} | ${worst} |`);
  row('all', result.overall);
  for (const [channel, a] of result.byChannel) row(`via ${channel}`, a);
  for (const [kind, a] of result.byFault) row(`sent ≤ 10 s after a ${kind} fault (${a.faults} faults)`, a, pct(a.worstWithin2s, 1));
  print('');
  print('| fault kind | faults | worst recovery | median recovery | worst from the fault\'s start | not recovered before the next fault |');
  print('|---|---:|---:|---:|---:|---:|');
  for (const kind of new Set(result.recoveries.map((r) => r.fault.kind))) {
    const ofKind = result.recoveries.filter((r) => r.fault.kind === kind);
    const known = ofKind.map((r) => r.recoveryMs).filter((ms): ms is number => ms !== undefined).sort((a, b) => a - b);
    const never = ofKind.length - known.length;
    const fromStart = ofKind.map((r) => r.fromStartMs).filter((ms): ms is number => ms !== undefined);
    print(`| ${kind} | ${ofKind.length} | ${secs(known.at(-1))} | ${secs(known[Math.floor((known.length - 1) / 2)])} | ${secs(fromStart.length ? Math.max(...fromStart) : undefined)} | ${never} |`);
  }
  print('');
  const checks = zeroChecks(result);
  print('| must be 0 | count | |');
  print('|---|---:|---|');
  for (const check of checks) print(`| ${check.name} | ${check.count} | ${check.count === 0 ? 'ok' : `FAIL ${check.detail}`} |`);
  print('');
  const sockets = result.ledger.sockets;
  const reconnects = [...sockets.reconnectMs].sort((a, b) => a - b);
  print(
    `sockets: ${sockets.connects} opened, ${sockets.snapshots} snapshots, ${sockets.resumes} resumes, ${sockets.repeats} repeated events; ` +
      `reconnect p50 ${secs(reconnects[Math.floor(reconnects.length / 2)])} p99 ${secs(reconnects[Math.floor(reconnects.length * 0.99)])} max ${secs(reconnects.at(-1))} (n=${reconnects.length})`,
  );
  print(`writes: ${result.chat.acked}/${result.chat.sent} chat messages and ${result.playlist.acked}/${result.playlist.sent} playlist adds acknowledged`);
  print(`reviews: ${result.reviews.pendingAtStart} pending at the start, ${result.reviews.decided} decided during the run, ${result.reviews.undecided} not decided by the end`);
  print(`activations: ${result.audit.activations} logged, ${result.audit.unresolved} superseded ones without an end line (not provable either way); svc processes restarted: ${result.restarts}`);
  if (result.errorCodes.size > 0) print(`final error codes: ${[...result.errorCodes].sort((a, b) => b[1] - a[1]).map(([code, n]) => `${code} ${n}`).join(', ')}`);
  print('');
  print('faults:');
  for (const r of result.recoveries) {
    const f = r.fault;
    print(
      `  ${new Date(f.startAt).toISOString().slice(11, 23)} ${f.kind.padEnd(8)} ${f.target.padEnd(9)} ${secs((f.endAt ?? f.startAt) - f.startAt).padStart(8)}  ` +
        `recovery ${r.recoveryMs === undefined ? `> ${secs(r.windowMs)}` : secs(r.recoveryMs)} (from start ${secs(r.fromStartMs)}) over ${r.affected} commands${f.error ? `  error: ${f.error.split('\n')[0]}` : ''}`,
    );
  }
  return checks;
}
