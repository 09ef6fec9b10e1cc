import { ErrorCode, NatsError } from 'nats';

/** JetStream's answer to a compare-and-set whose expected revision is not the key's current one. */
const WRONG_LAST_SEQUENCE = 10071;

/** A KV create on an existing key, or an update/delete with a stale revision. */
export function isWrongLastSequence(err: unknown): boolean {
  return err instanceof NatsError && err.api_error?.err_code === WRONG_LAST_SEQUENCE;
}

/** Whether `err` is a NatsError with one of `codes` (nats declares `code` a string; it holds an ErrorCode). */
function hasCode(err: unknown, ...codes: ErrorCode[]): boolean {
  return err instanceof NatsError && codes.includes(err.code as ErrorCode);
}

/** Nobody subscribes to the subject of a request. */
export function isNoResponders(err: unknown): boolean {
  return hasCode(err, ErrorCode.NoResponders);
}

/** A request got no reply within its timeout. */
export function isRequestTimeout(err: unknown): boolean {
  return hasCode(err, ErrorCode.Timeout);
}

/** The connection is closed or closing: no retry on it can succeed. */
export function isConnectionGone(err: unknown): boolean {
  return hasCode(err, ErrorCode.ConnectionClosed, ErrorCode.ConnectionDraining);
}

export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
