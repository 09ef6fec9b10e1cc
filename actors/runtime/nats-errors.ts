import { ErrorCode, NatsError } from 'nats';

/** JetStream's answer to a compare-and-set whose expected revision is not the key's current one. */
const WRONG_LAST_SEQUENCE = 10071;

/** A KV create on an existing key, or an update/delete with a stale revision. */
export function isWrongLastSequence(err: unknown): boolean {
  return err instanceof NatsError && err.api_error?.err_code === WRONG_LAST_SEQUENCE;
}

/** Nobody subscribes to the subject of a request. */
export function isNoResponders(err: unknown): boolean {
  return err instanceof NatsError && err.code === ErrorCode.NoResponders;
}

/** A request got no reply within its timeout. */
export function isRequestTimeout(err: unknown): boolean {
  return err instanceof NatsError && err.code === ErrorCode.Timeout;
}

/** The connection is closed or closing: no retry on it can succeed. */
export function isConnectionGone(err: unknown): boolean {
  return err instanceof NatsError && (err.code === ErrorCode.ConnectionClosed || err.code === ErrorCode.ConnectionDraining);
}

export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
