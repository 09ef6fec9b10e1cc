/**
 * Group commit of one kind of fenced write for all the actors of a host: writes that arrive
 * while earlier batches are running go together as one statement that claims the fence of
 * every actor in it (in key order, see claimFencesSql) and writes only for the claims that
 * held. Each write still gets its own outcome: FencedError when its actor was taken over,
 * its own result otherwise. A statement that fails as a whole is retried write by write (the
 * same statement, one write each), so only the write at fault fails.
 *
 * For hot, one-row writes (chat sends, playback positions). A transaction per write costs
 * four round trips and a commit; on a loaded host those socket writes were the largest cost.
 */
import type pg from 'pg';
import { inSpan, SpanKind, tracingEnabled, type Span } from '../../observability/index.js';
import { WriteBatcher } from '../../postgres/index.js';
import { claimFencesSql, FencedError, fencedWriteAttributes, type Fence } from './fencing.js';

export interface FencedBatchSpec<I extends { fence: Fence }, R> {
  /** The table written, for the write's span (`pg fenced batch <table>`). */
  table: string;
  /** The item's own columns, as (name, PostgreSQL type), in the order `values` gives them. */
  columns: Array<[name: string, type: string]>;
  values(item: I): unknown[];
  /**
   * The rest of the statement after `WITH input AS (…), claim AS (…),`. `input` has
   * actor_type, actor_id, fence, the columns and `ord`; `claim` has (actor_type, actor_id,
   * fence) of the claims that held, so `input JOIN claim USING (actor_type, actor_id, fence)`
   * is what may be written. It must end in a SELECT of one row per input row, ordered by
   * `ord`, with a boolean `claimed`.
   */
  statement: string;
  /** The result of an item whose claim held, from its row. */
  outcome(item: I, row: Record<string, unknown>, pool: pg.Pool): R | Promise<R>;
}

const BATCH = { maxBatch: 256, maxInFlight: 4 };

export class FencedBatchWriter<I extends { fence: Fence }, R> {
  private readonly batcher: WriteBatcher<I, R>;
  private readonly sql: string;
  /** The span of each traced write, for what only its batch knows (its size). */
  private readonly spans = new WeakMap<I, Span>();

  constructor(
    private readonly pool: pg.Pool,
    private readonly spec: FencedBatchSpec<I, R>,
  ) {
    const names = spec.columns.map(([name]) => name);
    const arrays = spec.columns.map(([, type], i) => `$${i + 4}::${type}[]`);
    this.sql = `WITH input AS (
  SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[], ${arrays.join(', ')})
    WITH ORDINALITY AS t(actor_type, actor_id, fence, ${names.join(', ')}, ord)
),
claim AS (
  ${claimFencesSql('SELECT actor_type, actor_id, max(fence) AS fence FROM input GROUP BY actor_type, actor_id')}
),
${spec.statement}`;
    this.batcher = new WriteBatcher((items) => this.writeBatch(items), BATCH);
  }

  /** Resolves once the write is committed; rejects with FencedError when the actor was taken over. */
  write(item: I): Promise<R> {
    if (!tracingEnabled() || item.fence.trace === undefined) return this.batcher.submit(item);
    // The span covers the wait for a batch too: that is part of what the command waits for.
    const attributes = () => ({ ...fencedWriteAttributes(item.fence), 'db.collection.name': this.spec.table });
    return inSpan(`pg fenced batch ${this.spec.table}`, { kind: SpanKind.CLIENT, parent: item.fence.trace, attributes }, (traced) => {
      if (traced) this.spans.set(item, traced.span);
      return this.batcher.submit(item);
    });
  }

  private async writeBatch(items: I[]): Promise<Array<R | Error>> {
    for (const item of items) this.spans.get(item)?.setAttribute('db.operation.batch.size', items.length);
    const values = items.map((item) => this.spec.values(item));
    let rows: Array<Record<string, unknown>>;
    try {
      ({ rows } = await this.pool.query(this.sql, [
        items.map((item) => item.fence.actorType),
        items.map((item) => item.fence.actorId),
        items.map((item) => item.fence.fence.toString()),
        ...this.spec.columns.map((_, column) => values.map((row) => row[column])),
      ]));
    } catch (err) {
      if (items.length === 1) return [toError(err)];
      return (await Promise.all(items.map((item) => this.writeBatch([item])))).flat();
    }
    if (rows.length !== items.length) throw new Error(`fenced batch answered ${rows.length} rows for ${items.length} writes`);
    return Promise.all(
      items.map(async (item, i): Promise<R | Error> => {
        const row = rows[i] as Record<string, unknown>;
        if (row.claimed !== true) return new FencedError(item.fence.actorType, item.fence.actorId, item.fence.fence);
        try {
          return await this.spec.outcome(item, row, this.pool);
        } catch (err) {
          return toError(err);
        }
      }),
    );
  }
}

function toError(err: unknown): Error {
  return err instanceof Error ? err : new Error(String(err));
}
