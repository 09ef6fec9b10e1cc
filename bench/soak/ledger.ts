/**
 * What every load generator did: each logical command (one person's one action, however many
 * times it was resent across reconnects) with when it was first sent, when and how it was
 * finally answered, and where it went. The checks and the report are computed from this.
 */
export type Channel = 'ws' | 'http' | 'grpc';

export interface CommandRecord {
  channel: Channel;
  kind: string;
  roomId: string;
  /** Slot name of the gateway the command was first sent through. */
  gateway: string;
  sentAt: number;
  answeredAt: number | undefined;
  ok: boolean;
  /** The final error code (`timeout`: no answer before the soak's deadline). */
  code: string | undefined;
  /** Sends after the first (resends after a reconnect or a retryable error). */
  resends: number;
  /** Retryable error codes (and `closed` for a lost socket) met on the way, once each. */
  retried: string[];
  /** A chat text or playlist title that must be in PostgreSQL once acknowledged. */
  marker?: string;
}

export interface SocketStats {
  /** Events whose seq was below one this client had already seen in the room (R5). */
  backwards: Array<{ client: number; roomId: string; seq: number; after: number; at: number }>;
  /** Events with a seq seen before (a repeat, not a step back). */
  repeats: number;
  connects: number;
  resumes: number;
  snapshots: number;
  /** Longest time from a socket closing to its client's next start (snapshot or resumed). */
  reconnectMs: number[];
}

/** Notes a retryable error a command met before its final answer. */
export function retried(record: CommandRecord, code: string): void {
  if (!record.retried.includes(code)) record.retried.push(code);
}

export class Ledger {
  readonly commands: CommandRecord[] = [];
  readonly sockets: SocketStats = { backwards: [], repeats: 0, connects: 0, resumes: 0, snapshots: 0, reconnectMs: [] };

  begin(record: Omit<CommandRecord, 'answeredAt' | 'ok' | 'code' | 'resends' | 'retried'>): CommandRecord {
    const full: CommandRecord = { ...record, answeredAt: undefined, ok: false, code: undefined, resends: 0, retried: [] };
    this.commands.push(full);
    return full;
  }

  static finish(record: CommandRecord, ok: boolean, code?: string): void {
    if (record.answeredAt !== undefined) return;
    record.answeredAt = Date.now();
    record.ok = ok;
    record.code = code;
  }
}

/** Milliseconds from send to an ok answer; Infinity for a command not answered ok. */
export function okLatency(record: CommandRecord): number {
  return record.ok && record.answeredAt !== undefined ? record.answeredAt - record.sentAt : Number.POSITIVE_INFINITY;
}
