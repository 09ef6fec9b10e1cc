import type pg from 'pg';
import { AppError, type FieldIssue } from '../errors/index.js';
import type { Logger } from '../observability/index.js';
import { SETTINGS_CHANNEL, decodeNotice } from './change-notification.js';
import type { SettingDefinition } from './definition.js';
import { frozenCopy } from './json-value.js';
import { NotifyListener } from './notify-listener.js';
import { auditSettingChanges } from './settings-audit.js';
import {
  definitionsOfGroup,
  findDefinition,
  settingDefinitions,
  type SettingKey,
  type SettingValues,
} from './registry.js';
import { SettingsStore, type AppliedChange, type ChangeAuthor, type HistoryEntry, type StoredSetting } from './settings-table.js';

/** One key's value changing in this process's cache. */
export type SettingChangeEvent = {
  [K in SettingKey]: {
    key: K;
    value: SettingValues[K];
    previous: SettingValues[K];
    version: number;
    /**
     * When the cache changed in this process: epoch milliseconds with a sub-millisecond
     * fraction (`performance.timeOrigin + performance.now()`), comparable to `Date.now()`.
     */
    appliedAt: number;
  };
}[SettingKey];

export interface ReloadEvent {
  /** `start` for the first load, `reconnect` after the listener came back. */
  reason: 'start' | 'reconnect';
  /** Keys whose value the reload changed; non-empty after a reconnect means a gap was healed. */
  changedKeys: SettingKey[];
}

export interface SettingSnapshotEntry {
  key: string;
  value: unknown;
  /** True when the key was never written and holds the registry default. */
  isDefault: boolean;
  /** 0 when never written. */
  version: number;
  updatedAt?: Date;
  updatedBy?: string;
}

export interface RuntimeSettingsOptions {
  pool: pg.Pool;
  /** For the dedicated LISTEN connection, which must not come from (or starve) the pool. */
  connectionString: string;
  logger: Logger;
  /** Recorded in history for writes made through this instance and sent in its notifications. */
  replicaId: string;
}

interface CacheEntry {
  /** Deep-frozen: the same object is handed to every reader. */
  value: unknown;
  version: number;
  updatedAt?: Date;
  updatedBy?: string;
}

interface Subscription {
  listener: (change: SettingChangeEvent) => void;
  keys?: ReadonlySet<string>;
}

export const LISTENER_APPLICATION_NAME = 'svc-settings-listener';

/**
 * The in-memory runtime settings every replica reads. Reads are synchronous and never touch
 * the database; the cache follows PostgreSQL through LISTEN/NOTIFY.
 *
 * Consistency rules:
 * - A notification only names keys; the values are re-read with a SELECT, so what the cache
 *   holds is always a committed row.
 * - Each key carries a version. Anything not newer than the cached version is ignored, so
 *   reloads that finish out of order can never move a key backwards.
 * - After every (re)connect of the listener the whole table is reloaded, after LISTEN, so a
 *   notification missed while disconnected cannot leave this replica stale.
 * - A write made through this instance is applied to the cache as soon as it commits, without
 *   waiting for its own notification to come back.
 */
export class RuntimeSettings {
  private readonly cache = new Map<string, CacheEntry>();
  private readonly subscriptions = new Set<Subscription>();
  private readonly reloadListeners = new Set<(event: ReloadEvent) => void>();
  private readonly inFlight = new Set<Promise<void>>();
  private listener: NotifyListener | undefined;

  private constructor(
    private readonly store: SettingsStore,
    private readonly logger: Logger,
    readonly replicaId: string,
  ) {
    for (const definition of settingDefinitions) {
      this.cache.set(definition.key, { value: frozenCopy(definition.default), version: 0 });
    }
  }

  /** Loads every setting and starts following changes; rejects if PostgreSQL cannot be reached. */
  static async start(options: RuntimeSettingsOptions): Promise<RuntimeSettings> {
    const logger = options.logger.child({ component: 'runtime-settings' });
    const settings = new RuntimeSettings(new SettingsStore(options.pool), logger, options.replicaId);
    const listener = new NotifyListener({
      connectionString: options.connectionString,
      channel: SETTINGS_CHANNEL,
      applicationName: LISTENER_APPLICATION_NAME,
      logger,
      onNotification: (payload) => settings.onNotification(payload),
      onListening: ({ reconnect }) => settings.reloadAll(reconnect ? 'reconnect' : 'start'),
    });
    settings.listener = listener;
    await listener.start();
    return settings;
  }

  /** Stops following changes. The cache keeps answering with its last values. */
  async stop(): Promise<void> {
    const listener = this.listener;
    this.listener = undefined;
    await listener?.stop();
    await Promise.allSettled([...this.inFlight]);
  }

  /** The current value; frozen, so a caller cannot change it for everyone else. */
  get<K extends SettingKey>(key: K): SettingValues[K] {
    const entry = this.cache.get(key);
    if (!entry) throw new Error(`runtime setting ${key} is not in the registry`);
    return entry.value as SettingValues[K];
  }

  /** Every setting in registry order. */
  snapshot(): SettingSnapshotEntry[] {
    return settingDefinitions.map((definition) => {
      const entry = this.cache.get(definition.key) ?? { value: definition.default, version: 0 };
      return {
        key: definition.key,
        value: entry.value,
        isDefault: entry.version === 0,
        version: entry.version,
        ...(entry.updatedAt ? { updatedAt: entry.updatedAt } : {}),
        ...(entry.updatedBy ? { updatedBy: entry.updatedBy } : {}),
      };
    });
  }

  /**
   * Calls `listener` for every change of the cache (of the given keys only, when named) until
   * the returned function is called. Listeners run synchronously; one that throws is logged
   * and does not stop the others.
   */
  subscribe(listener: (change: SettingChangeEvent) => void, keys?: readonly SettingKey[]): () => void {
    const subscription: Subscription = { listener, ...(keys ? { keys: new Set(keys) } : {}) };
    this.subscriptions.add(subscription);
    return () => {
      this.subscriptions.delete(subscription);
    };
  }

  /** Calls `listener` after every full reload: at start and after each listener reconnect. */
  onReload(listener: (event: ReloadEvent) => void): () => void {
    this.reloadListeners.add(listener);
    return () => {
      this.reloadListeners.delete(listener);
    };
  }

  /**
   * Writes settings of one group (`values` maps the name after the group, for example
   * `maxRoomsPerUser`, to its decoded value). Every problem is reported together and nothing
   * is written if there is one. Returns only the keys whose value actually changed. The
   * history records `who.replicaId`, this replica's id when not given.
   */
  async update(group: string, values: Record<string, unknown>, who: ChangeAuthor): Promise<AppliedChange[]> {
    const definitions = this.groupDefinitions(group);
    const issues: FieldIssue[] = [];
    const changes: Array<{ key: string; value: unknown }> = [];
    for (const [name, value] of Object.entries(values)) {
      const definition = definitions.get(name);
      if (!definition) {
        issues.push({ key: `${group}.${name}`, message: 'unknown runtime setting' });
        continue;
      }
      const checked = definition.validate(value);
      if (checked.ok) changes.push({ key: definition.key, value: checked.value });
      else issues.push({ key: definition.key, message: checked.message });
    }
    if (issues.length > 0) throw AppError.invalid(issues);

    const author = { ...who, replicaId: who.replicaId ?? this.replicaId };
    const applied = await this.store.update(changes, author);
    auditSettingChanges(this.logger, author, applied);
    this.emit(
      applied.flatMap((change) => {
        const event = this.apply(change.key, {
          value: change.newValue,
          version: change.version,
          updatedAt: change.updatedAt,
          updatedBy: change.updatedBy,
        });
        return event ? [event] : [];
      }),
    );
    return applied;
  }

  /**
   * Like `update`, with values in their CLI text form (`--set name=value`), decoded by each
   * setting's own parser.
   */
  async updateRaw(group: string, raws: Record<string, string>, who: ChangeAuthor): Promise<AppliedChange[]> {
    const definitions = this.groupDefinitions(group);
    const issues: FieldIssue[] = [];
    const values: Record<string, unknown> = {};
    for (const [name, raw] of Object.entries(raws)) {
      const definition = definitions.get(name);
      if (!definition) {
        issues.push({ key: `${group}.${name}`, message: 'unknown runtime setting' });
        continue;
      }
      const parsed = definition.parse(raw);
      if (parsed.ok) values[name] = parsed.value;
      else issues.push({ key: definition.key, message: parsed.message });
    }
    if (issues.length > 0) throw AppError.invalid(issues);
    return this.update(group, values, who);
  }

  /** Recorded changes of one key, newest first. */
  history(key: string, limit?: number): Promise<HistoryEntry[]> {
    return this.store.history(key, limit);
  }

  private groupDefinitions(group: string): Map<string, SettingDefinition> {
    const definitions = definitionsOfGroup(group);
    if (definitions.length === 0) {
      throw AppError.invalid([{ key: group, message: 'unknown settings group' }]);
    }
    return new Map(definitions.map((definition) => [definition.name, definition]));
  }

  private onNotification(payload: string | undefined): void {
    const notice = decodeNotice(payload);
    if (!notice) {
      this.logger.warn({ payload }, 'ignoring a settings notification that is not a change notice');
      return;
    }
    // Keys this binary does not know (written by a newer release) and versions already held
    // (this instance's own writes) need no round trip.
    const keys = notice.keys.filter((key, i) => {
      const entry = this.cache.get(key);
      return entry !== undefined && (notice.versions[i] ?? 0) > entry.version;
    });
    if (keys.length === 0) return;
    this.track(
      this.reloadKeys(keys).catch((err: unknown) => {
        // The change is committed but this replica could not read it. Restarting the listener
        // retries with backoff and ends in a full reload, which picks the change up.
        const message = err instanceof Error ? err.message : String(err);
        this.logger.warn({ keys, err: message }, 'could not reload notified settings; restarting the listener');
        this.listener?.restart(new Error(`reload failed: ${message}`));
      }),
    );
  }

  private async reloadKeys(keys: string[]): Promise<void> {
    const rows = await this.store.load(keys);
    const events: SettingChangeEvent[] = [];
    for (const [key, row] of rows) {
      const event = this.apply(key, row);
      if (event) events.push(event);
    }
    this.emit(events);
  }

  private async reloadAll(reason: ReloadEvent['reason']): Promise<void> {
    const rows = await this.store.loadAll();
    const events: SettingChangeEvent[] = [];
    for (const [key, row] of rows) {
      const event = this.apply(key, row);
      if (event) events.push(event);
    }
    this.emit(events);
    const changedKeys = events.map((event) => event.key);
    if (reason === 'reconnect') {
      this.logger.info({ changedKeys }, 'runtime settings reloaded after reconnect');
    }
    for (const listener of this.reloadListeners) {
      try {
        listener({ reason, changedKeys });
      } catch (err) {
        this.logger.error({ err }, 'settings reload listener failed');
      }
    }
  }

  /** Puts a committed row into the cache if it is newer than what the cache holds. */
  private apply(key: string, row: StoredSetting): SettingChangeEvent | undefined {
    const definition = findDefinition(key);
    const entry = this.cache.get(key);
    if (!definition || !entry || row.version <= entry.version) return undefined;

    let value = row.value;
    const checked = definition.validate(row.value);
    if (checked.ok) {
      value = checked.value;
    } else {
      // Written under other rules (a different release). Serving it could break callers that
      // rely on the rule, so this replica uses the default until the key is rewritten.
      this.logger.error({ key, version: row.version, reason: checked.message }, 'stored setting is invalid here; using its default');
      value = definition.default;
    }
    this.cache.set(key, { value: frozenCopy(value), version: row.version, updatedAt: row.updatedAt, updatedBy: row.updatedBy });
    return {
      key,
      value: this.cache.get(key)?.value,
      previous: entry.value,
      version: row.version,
      appliedAt: performance.timeOrigin + performance.now(),
    } as SettingChangeEvent;
  }

  private emit(events: SettingChangeEvent[]): void {
    for (const event of events) {
      for (const subscription of this.subscriptions) {
        if (subscription.keys && !subscription.keys.has(event.key)) continue;
        try {
          subscription.listener(event);
        } catch (err) {
          this.logger.error({ err, key: event.key }, 'settings subscriber failed');
        }
      }
    }
  }

  private track(work: Promise<void>): void {
    this.inFlight.add(work);
    void work.finally(() => this.inFlight.delete(work));
  }
}
