import type pg from 'pg';
import { AppError, type FieldIssue } from '../errors/index.js';
import { advisoryLocks } from '../postgres/index.js';
import { classifyDatabaseError } from '../postgres/index.js';
import { SETTINGS_CHANNEL, encodeNotice } from './change-notification.js';
import { jsonEqual } from './json-value.js';
import { findDefinition } from './registry.js';

/** A row of `settings`: a key that has been written at least once. */
export interface StoredSetting {
  value: unknown;
  /** 1 on the first write of the key, +1 on every later one. */
  version: number;
  updatedAt: Date;
  updatedBy: string;
}

export interface SettingChange {
  key: string;
  /** The decoded (JSON) value; validated against the registry before anything is written. */
  value: unknown;
}

/** Who made a change, recorded in `settings_history`. */
export interface ChangeAuthor {
  /** The person or system account, for example `alice` or `management`. */
  actor: string;
  /** The path it came through, for example `management:unix` or `cli`. */
  source: string;
  replicaId?: string;
}

export interface AppliedChange {
  key: string;
  /** The effective value before the change: the registry default when the key was never written. */
  oldValue: unknown;
  oldIsDefault: boolean;
  newValue: unknown;
  version: number;
  updatedAt: Date;
  updatedBy: string;
}

export interface HistoryEntry {
  id: number;
  key: string;
  /**
   * The value before this change. When the key was at its default this is the default of the
   * running binary (and `oldIsDefault` is true), since the database stores no value for it.
   */
  oldValue: unknown;
  oldIsDefault: boolean;
  newValue: unknown;
  changedBy: string;
  source: string;
  replicaId: string | null;
  changedAt: Date;
}

interface SettingRow {
  key: string;
  value: unknown;
  version: string;
  updated_at: Date;
  updated_by: string;
}

interface HistoryRow {
  id: string;
  key: string;
  old_value: unknown;
  old_is_default: boolean;
  new_value: unknown;
  changed_by: string;
  source: string;
  replica_id: string | null;
  changed_at: Date;
}

const DEFAULT_HISTORY_LIMIT = 50;
const MAX_HISTORY_LIMIT = 1000;

const UPSERT_AND_RECORD = `
  WITH written AS (
    INSERT INTO settings AS s (key, value, version, updated_by)
    VALUES ($1, $2::jsonb, 1, $3)
    ON CONFLICT (key) DO UPDATE
      SET value = EXCLUDED.value, version = s.version + 1, updated_at = now(), updated_by = EXCLUDED.updated_by
    RETURNING key, value, version, updated_at, updated_by
  ), recorded AS (
    INSERT INTO settings_history (key, old_value, new_value, changed_by, source, replica_id)
    SELECT key, $4::jsonb, value, $3, $5, $6 FROM written
  )
  SELECT version, updated_at, updated_by FROM written`;

/**
 * Durable runtime settings in PostgreSQL: the `settings` table holds every key that was ever
 * written, `settings_history` every change. A key with no row is at its registry default.
 *
 * Writes are validated against the registry first and are all-or-nothing. The NOTIFY that
 * tells other replicas to reload is sent inside the write transaction, so PostgreSQL
 * delivers it only if the write commits, and never before the new rows are visible.
 */
export class SettingsStore {
  constructor(private readonly pool: pg.Pool) {}

  async loadAll(): Promise<Map<string, StoredSetting>> {
    return this.query('loading settings', (db) =>
      db.query<SettingRow>('SELECT key, value, version, updated_at, updated_by FROM settings'),
    ).then(toMap);
  }

  /** The stored rows of the given keys; keys never written are absent from the map. */
  async load(keys: readonly string[]): Promise<Map<string, StoredSetting>> {
    if (keys.length === 0) return new Map();
    return this.query('loading settings', (db) =>
      db.query<SettingRow>(
        'SELECT key, value, version, updated_at, updated_by FROM settings WHERE key = ANY($1::text[])',
        [keys],
      ),
    ).then(toMap);
  }

  /**
   * Writes a batch of changes in one transaction. Every change is validated first and every
   * problem is reported together; if any fails, nothing is written.
   *
   * A change to the value the key already has (the stored value, or the default for a key
   * never written) is skipped: it gets no new version, no history row and no notification,
   * and is absent from the result. Writing the default to a never-written key therefore
   * leaves it following the registry default rather than pinning today's default.
   */
  async update(changes: readonly SettingChange[], who: ChangeAuthor): Promise<AppliedChange[]> {
    const validated = validateChanges(changes);
    if (!who.actor.trim() || !who.source.trim()) {
      throw AppError.invalid([{ key: who.actor.trim() ? 'source' : 'actor', message: 'must not be empty' }]);
    }
    if (validated.length === 0) return [];

    const client = await this.connect('writing settings');
    let broken: Error | undefined;
    try {
      await client.query('BEGIN');
      await client.query('SELECT pg_advisory_xact_lock($1::bigint)', [advisoryLocks.settingsWrite]);
      const { rows } = await client.query<SettingRow>(
        'SELECT key, value, version, updated_at, updated_by FROM settings WHERE key = ANY($1::text[]) FOR UPDATE',
        [validated.map((change) => change.key)],
      );
      const current = toMap({ rows });

      const applied: AppliedChange[] = [];
      for (const change of validated) {
        const stored = current.get(change.key);
        const oldValue = stored ? stored.value : change.defaultValue;
        if (jsonEqual(oldValue, change.value)) continue;
        const result = await client.query<{ version: string; updated_at: Date; updated_by: string }>(UPSERT_AND_RECORD, [
          change.key,
          JSON.stringify(change.value),
          who.actor,
          stored ? JSON.stringify(stored.value) : null,
          who.source,
          who.replicaId ?? null,
        ]);
        const row = result.rows[0];
        if (!row) throw new Error(`upsert of ${change.key} returned no row`);
        applied.push({
          key: change.key,
          oldValue,
          oldIsDefault: !stored,
          newValue: change.value,
          version: Number(row.version),
          updatedAt: row.updated_at,
          updatedBy: row.updated_by,
        });
      }

      if (applied.length === 0) {
        await client.query('ROLLBACK');
        return [];
      }
      const notice = encodeNotice({
        keys: applied.map((change) => change.key),
        versions: applied.map((change) => change.version),
        replicaId: who.replicaId ?? null,
      });
      await client.query('SELECT pg_notify($1, $2)', [SETTINGS_CHANNEL, notice]);
      await client.query('COMMIT');
      return applied;
    } catch (err) {
      await client.query('ROLLBACK').catch((rollbackErr: Error) => {
        broken = rollbackErr;
      });
      throw classifyDatabaseError(err, 'writing settings');
    } finally {
      client.release(broken);
    }
  }

  /** Changes of one key, newest first. */
  async history(key: string, limit = DEFAULT_HISTORY_LIMIT): Promise<HistoryEntry[]> {
    const definition = findDefinition(key);
    if (!definition) throw unknownKeys([key]);
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_HISTORY_LIMIT) {
      throw AppError.invalid([{ key: 'limit', message: `must be an integer in 1..=${MAX_HISTORY_LIMIT}` }]);
    }
    const { rows } = await this.query('reading settings history', (db) =>
      db.query<HistoryRow>(
        `SELECT id, key, old_value, old_value IS NULL AS old_is_default, new_value, changed_by, source, replica_id, changed_at
           FROM settings_history WHERE key = $1 ORDER BY id DESC LIMIT $2`,
        [key, limit],
      ),
    );
    return rows.map((row) => ({
      id: Number(row.id),
      key: row.key,
      oldValue: row.old_is_default ? definition.default : row.old_value,
      oldIsDefault: row.old_is_default,
      newValue: row.new_value,
      changedBy: row.changed_by,
      source: row.source,
      replicaId: row.replica_id,
      changedAt: row.changed_at,
    }));
  }

  private async connect(what: string): Promise<pg.PoolClient> {
    try {
      return await this.pool.connect();
    } catch (err) {
      throw classifyDatabaseError(err, what);
    }
  }

  private async query<R extends pg.QueryResultRow>(
    what: string,
    run: (db: pg.Pool) => Promise<pg.QueryResult<R>>,
  ): Promise<pg.QueryResult<R>> {
    try {
      return await run(this.pool);
    } catch (err) {
      throw classifyDatabaseError(err, what);
    }
  }
}

interface ValidatedChange {
  key: string;
  value: unknown;
  defaultValue: unknown;
}

function validateChanges(changes: readonly SettingChange[]): ValidatedChange[] {
  const issues: FieldIssue[] = [];
  const seen = new Set<string>();
  const validated: ValidatedChange[] = [];
  for (const change of changes) {
    if (seen.has(change.key)) {
      issues.push({ key: change.key, message: 'is given more than once' });
      continue;
    }
    seen.add(change.key);
    const definition = findDefinition(change.key);
    if (!definition) {
      issues.push({ key: change.key, message: 'unknown runtime setting' });
      continue;
    }
    const result = definition.validate(change.value);
    if (result.ok) validated.push({ key: change.key, value: result.value, defaultValue: definition.default });
    else issues.push({ key: change.key, message: result.message });
  }
  if (issues.length > 0) throw AppError.invalid(issues);
  return validated;
}

function unknownKeys(keys: string[]): AppError {
  return AppError.invalid(keys.map((key) => ({ key, message: 'unknown runtime setting' })));
}

function toMap(result: { rows: SettingRow[] }): Map<string, StoredSetting> {
  return new Map(
    result.rows.map((row) => [
      row.key,
      { value: row.value, version: Number(row.version), updatedAt: row.updated_at, updatedBy: row.updated_by },
    ]),
  );
}
