import type pg from 'pg';
import { AppError } from '../../errors/app-error.js';

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

/**
 * Runs `fn` in one transaction that first claims the actor's fencing token: the token row is
 * raised to `fence` unless a higher one is already there, in which case nothing is written
 * and FencedError is thrown. The row lock also serialises writes of one actor.
 */
export async function withFence<T>(
  pool: pg.Pool,
  actorType: string,
  actorId: string,
  fence: bigint,
  fn: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const claimed = await client.query(
      `INSERT INTO actor_fences (actor_type, actor_id, fence) VALUES ($1, $2, $3)
       ON CONFLICT (actor_type, actor_id) DO UPDATE SET fence = EXCLUDED.fence, updated_at = now()
       WHERE actor_fences.fence <= EXCLUDED.fence
       RETURNING fence`,
      [actorType, actorId, fence.toString()],
    );
    if (claimed.rowCount === 0) {
      await client.query('ROLLBACK');
      throw new FencedError(actorType, actorId, fence);
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
