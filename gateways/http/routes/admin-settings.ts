import { issuerChangesOf } from '../../../accounts/index.js';
import { AppError, type FieldIssue } from '../../../errors/index.js';
import type { RuntimeSettings } from '../../../settings/index.js';
import { definitionsOfGroup, findDefinition, settingDefinitions } from '../../../settings/index.js';
import { keepRedactedSecrets, redactSettingValue } from '../../../settings/index.js';
import * as api from '../../../contracts/http/admin-settings.js';
import { SETTING_GROUPS } from '../../../contracts/http/setting-values.js';
import type { EndpointRouter } from '../endpoint-router.js';

const DEFAULT_HISTORY = 50;

/**
 * The admin settings endpoints of `api/admin-settings.ts`. Writes go through
 * `RuntimeSettings.update` (validated, one transaction, NOTIFY to every replica) with the
 * administrator as `user:<username>` and source `http`, so the history says who changed what.
 */
export function mountAdminSettingRoutes(router: EndpointRouter, settings: RuntimeSettings): void {
  router
    .mount(api.adminListSettings, (ctx, { query }) => {
      if (query.group !== undefined && definitionsOfGroup(query.group).length === 0) {
        throw new AppError('not_found', `no settings group "${query.group}"`, [{ key: 'group', message: 'is not a settings group' }]);
      }
      ctx.body = { settings: settingViews(settings).filter((view) => query.group === undefined || view.group === query.group) };
      return Promise.resolve();
    })
    .mount(api.adminGetSetting, (ctx, { params }) => {
      const key = knownKey(params.key);
      ctx.body = settingViews(settings).find((view) => view.key === key);
      return Promise.resolve();
    })
    .mount(api.adminSettingHistory, async (ctx, { params, query }) => {
      const key = knownKey(params.key);
      const entries = await settings.history(key, query.limit ?? DEFAULT_HISTORY);
      ctx.body = {
        history: entries.map((entry) => ({
          key: entry.key,
          oldValue: redactSettingValue(entry.key, entry.oldValue),
          oldIsDefault: entry.oldIsDefault,
          newValue: redactSettingValue(entry.key, entry.newValue),
          changedBy: entry.changedBy,
          source: entry.source,
          replicaId: entry.replicaId ?? null,
          changedAt: entry.changedAt.toISOString(),
        })),
      };
    });
  for (const group of SETTING_GROUPS) {
    router.mount(api.SETTING_GROUP_WRITES[group], async (ctx, { caller, body }) => {
      // Whoever rewrites oauth2.providers decides who vouches for every bound identity, root's too.
      if (group === 'oauth2' && 'providers' in body && caller.role !== 'root') {
        throw new AppError('forbidden', 'oauth2.providers is written by role root only', [{ key: 'oauth2.providers', message: 'needs role root' }]);
      }
      const changes = await settings.update(group, withStoredSecrets(settings, group, body), { actor: `user:${caller.username}`, source: 'http', replicaId: settings.replicaId });
      ctx.state.log.info({ event: 'admin.settings.update', actor: `user:${caller.username}`, keys: changes.map((change) => change.key) }, 'an administrator changed runtime settings');
      ctx.body = {
        changes: changes.map((change) => ({
          key: change.key,
          oldValue: redactSettingValue(change.key, change.oldValue),
          newValue: redactSettingValue(change.key, change.newValue),
          version: change.version,
        })),
        oauth2IssuerChanges: issuerChangesOf(changes),
      };
    });
  }
}

function settingViews(settings: RuntimeSettings) {
  const byKey = new Map(settings.snapshot().map((entry) => [entry.key, entry]));
  return settingDefinitions.map((definition) => {
    const entry = byKey.get(definition.key);
    return {
      key: definition.key,
      group: definition.group,
      groupLabel: definition.groupLabel,
      name: definition.name,
      type: definition.type,
      value: redactSettingValue(definition.key, entry?.value ?? definition.default),
      default: definition.default,
      isDefault: entry?.isDefault ?? true,
      version: entry?.version ?? 0,
      ...(entry?.updatedAt ? { updatedAt: entry.updatedAt.toISOString() } : {}),
      ...(entry?.updatedBy ? { updatedBy: entry.updatedBy } : {}),
      label: definition.label,
      description: definition.description,
      accepts: definition.accepts,
      input: definition.input,
      rule: definition.rule,
    };
  });
}

/**
 * The listing hides credentials, so a form sends them back as "[redacted]": those keep the
 * stored credential (settings/secret-fields.ts); one that cannot be matched is refused here,
 * before anything is written.
 */
function withStoredSecrets(settings: RuntimeSettings, group: string, body: Record<string, unknown>): Record<string, unknown> {
  const stored = new Map(settings.snapshot().map((entry) => [entry.key, entry.value]));
  const issues: FieldIssue[] = [];
  const restored = Object.fromEntries(
    Object.entries(body).map(([name, value]) => {
      const key = `${group}.${name}`;
      const kept = keepRedactedSecrets(key, value, stored.get(key));
      if (kept.ok) return [name, kept.value];
      issues.push({ key, message: kept.message });
      return [name, value];
    }),
  );
  if (issues.length > 0) throw AppError.invalid(issues);
  return restored;
}

function knownKey(key: string): string {
  if (findDefinition(key)) return key;
  throw new AppError('not_found', `no runtime setting "${key}"`, [{ key: 'key', message: 'is not a runtime setting' }]);
}
