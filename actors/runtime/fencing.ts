import type pg from 'pg';
import { AppError } from '../../errors/index.js';
import { inSpan, SpanKind, tracingEnabled, type TraceFields } from '../../observability/index.js';

/** A durable write was refused because a newer activation of the actor holds a higher token. */
export class FencedError extends AppError {
  constructor(
    readonly actorType: string,
    readonly actorId: string,
    readonly fence: bigint,
  ) {
    super('conflict', `${actorType} ${actorId}: this activation (fence ${fence}) was superseded by a newer one`);
    this.name = 'FencedError';
  }
}

export function isFencedError(err: unknown): err is FencedError {
  return err instanceof FencedError;
}

/** Which activation writes: the actor and the fencing token it holds. */
export interface Fence {
  actorType: string;
  actorId: string;
  fence: bigint;
  /** The recorded trace of the command turn that writes (ActivationContext.trace): the write's span joins it; none: not traced. */
  trace?: TraceFields;
}

/** An existing row is raised to the new token only when that is not lower (and always locked). */
const RAISE_FENCE = `ON CONFLICT (actor_type, actor_id) DO UPDATE SET fence = EXCLUDED.fence, updated_at = now()
  WHERE actor_fences.fence <= EXCLUDED.fence`;

/**
 * Claims the token: raises the actor's row to `fence` ($3) for actor $1/$2 unless a higher
 * one is there, and returns one row when the claim holds. The row lock it takes (even when
 * the WHERE refuses) serialises writes of one actor until the transaction ends.
 */
const CLAIM_FENCE_SQL = `INSERT INTO actor_fences (actor_type, actor_id, fence) VALUES ($1, $2, $3)
  ${RAISE_FENCE} RETURNING fence`;

/**
 * The claim of withFence for many actors in one statement (see FencedBatchWriter): `source`
 * is a query of rows (actor_type, actor_id, fence), at most one per actor. Returns
 * (actor_type, actor_id, fence) of each claim that holds. Rows are locked in key order, so two
 * batches never deadlock.
 */
export function claimFencesSql(source: string): string {
  return `INSERT INTO actor_fences (actor_type, actor_id, fence)
  SELECT actor_type, actor_id, fence FROM (${source}) AS claims ORDER BY actor_type, actor_id
  ${RAISE_FENCE} RETURNING actor_type, actor_id, fence`;
}

/**
 * Runs `fn` in one transaction that first claims the actor's fencing token; when a higher
 * token is already there, nothing is written and FencedError is thrown.
 */
export function withFence<T>(pool: pg.Pool, fence: Fence, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  if (!tracingEnabled() || fence.trace === undefined) return fencedTransaction(pool, fence, fn);
  return inSpan('pg fenced transaction', { kind: SpanKind.CLIENT, parent: fence.trace, attributes: () => fencedWriteAttributes(fence) }, () =>
    fencedTransaction(pool, fence, fn),
  );
}

/** What a span of a fenced write says about it (OTel database conventions, and the actor). */
export function fencedWriteAttributes(fence: Fence): Record<string, string> {
  return {
    'db.system': 'postgresql',
    'db.system.name': 'postgresql',
    'svc.actor.type': fence.actorType,
    'svc.actor.id': fence.actorId,
    'svc.actor.fence': fence.fence.toString(),
  };
}

async function fencedTransaction<T>(pool: pg.Pool, fence: Fence, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const claimed = await client.query(CLAIM_FENCE_SQL, [fence.actorType, fence.actorId, fence.fence.toString()]);
    if (claimed.rowCount === 0) {
      await client.query('ROLLBACK');
      throw new FencedError(fence.actorType, fence.actorId, fence.fence);
    }
    const result = await fn(client);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    if (!isFencedError(err)) await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}
