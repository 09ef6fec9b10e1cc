import Router from '@koa/router';
import type { RuntimeSettings } from '../../settings/index.js';
import { findDefinition, settingDefinitions } from '../../settings/index.js';
import { AppError } from '../../errors/index.js';
import type { ReviewClient } from '../../workflows/index.js';
import type { Accounts } from '../../accounts/index.js';
import { issuerChangesOf } from '../../accounts/index.js';
import { mountReviewRoutes } from './review-routes.js';
import { mountUserRoutes } from './user-routes.js';
import {
  ACTOR_HEADER,
  routes,
  type SettingChangeView,
  type SettingHistoryView,
  type SettingView,
  type SystemStats,
  type UpdateSettingsAnswer,
  type UpdateSettingsRequest,
} from '../../contracts/management.js';

export interface ManagementRouteDeps {
  settings: RuntimeSettings;
  replicaId: string;
  stats(): Promise<SystemStats>;
  /** Review workflows (Temporal); without it the review routes answer `unavailable`. */
  reviews?: ReviewClient;
  /** The accounts module; without it the user routes answer `unavailable`. */
  accounts?: Pick<Accounts, 'admin'>;
}

const MAX_HISTORY = 1000;

export function managementRouter(deps: ManagementRouteDeps, transport: 'unix' | 'tcp'): Router {
  const router = new Router();

  router.get(routes.stats, async (ctx) => {
    ctx.body = await deps.stats();
  });

  router.get(routes.settings, (ctx) => {
    ctx.body = { settings: settingViews(deps.settings) };
  });

  router.get('/v1/settings/:key', (ctx) => {
    const key = knownKey(ctx.params.key);
    ctx.body = settingViews(deps.settings).find((view) => view.key === key);
  });

  router.get('/v1/settings/:key/history', async (ctx) => {
    const key = knownKey(ctx.params.key);
    const limit = parseLimit(ctx.query.limit);
    const entries = await deps.settings.history(key, limit);
    const body: SettingHistoryView[] = entries.map((entry) => ({
      key: entry.key,
      oldValue: entry.oldValue,
      oldIsDefault: entry.oldIsDefault,
      newValue: entry.newValue,
      changedBy: entry.changedBy,
      source: entry.source,
      replicaId: entry.replicaId ?? null,
      changedAt: entry.changedAt.toISOString(),
    }));
    ctx.body = { history: body };
  });

  router.patch('/v1/settings/groups/:group', async (ctx) => {
    const request = parseUpdateRequest(ctx.request.body);
    const actor = actorOf(ctx.get(ACTOR_HEADER));
    const changes = await deps.settings.updateRaw(ctx.params.group ?? '', request.set, {
      actor,
      source: `management:${transport}`,
      replicaId: deps.replicaId,
    });
    const body: SettingChangeView[] = changes.map((change) => ({
      key: change.key,
      oldValue: change.oldValue,
      newValue: change.newValue,
      version: change.version,
    }));
    const answer: UpdateSettingsAnswer = { changes: body, oauth2IssuerChanges: issuerChangesOf(changes) };
    ctx.body = answer;
  });

  mountReviewRoutes(router, deps.reviews, actorOf);
  mountUserRoutes(router, deps.accounts?.admin, actorOf);

  return router;
}

function settingViews(settings: RuntimeSettings): SettingView[] {
  const byKey = new Map(settings.snapshot().map((entry) => [entry.key, entry]));
  return settingDefinitions.map((definition) => {
    const entry = byKey.get(definition.key);
    return {
      key: definition.key,
      value: entry?.value ?? definition.default,
      isDefault: entry?.isDefault ?? true,
      version: entry?.version ?? 0,
      ...(entry?.updatedAt ? { updatedAt: entry.updatedAt.toISOString() } : {}),
      ...(entry?.updatedBy ? { updatedBy: entry.updatedBy } : {}),
      type: definition.type,
      rule: definition.rule,
      description: definition.description,
    };
  });
}

function knownKey(key: string | undefined): string {
  if (key && findDefinition(key)) return key;
  throw new AppError('not_found', `unknown runtime setting "${key ?? ''}"; "svc settings list" shows every key`, [
    { key: key ?? '', message: 'unknown runtime setting' },
  ]);
}

function parseLimit(raw: string | string[] | undefined): number {
  if (raw === undefined) return 50;
  const text = Array.isArray(raw) ? raw.join(',') : raw;
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < 1 || value > MAX_HISTORY) {
    throw AppError.invalid([{ key: 'limit', message: `must be an integer in 1..=${MAX_HISTORY}` }]);
  }
  return value;
}

function parseUpdateRequest(body: unknown): UpdateSettingsRequest {
  const set = (body as { set?: unknown } | undefined)?.set;
  if (typeof set !== 'object' || set === null || Array.isArray(set)) {
    throw AppError.invalid([{ key: 'set', message: 'must be an object of setting name to text value' }]);
  }
  const entries = Object.entries(set as Record<string, unknown>);
  if (entries.length === 0) throw AppError.invalid([{ key: 'set', message: 'names at least one setting' }]);
  for (const [name, value] of entries) {
    if (typeof value !== 'string') throw AppError.invalid([{ key: `set.${name}`, message: 'must be the text form of the value' }]);
  }
  return { set: set as Record<string, string> };
}

function actorOf(header: string): string {
  const trimmed = header.trim();
  return trimmed.length > 0 && trimmed.length <= 200 ? trimmed : 'management';
}
