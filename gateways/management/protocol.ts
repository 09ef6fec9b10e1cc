/**
 * The management API spoken between `svc serve` and the `svc` CLI: JSON over HTTP/1.1 on a
 * Unix socket or a token-protected TCP port. Both sides import these names so they cannot
 * drift apart.
 */
import type { ReviewKind, ReviewMode, ReviewState, ReviewSummary, ReviewView } from '../../workflows/review-contract.js';

export type { ReviewKind, ReviewMode, ReviewState, ReviewSummary, ReviewView };

/** Every response of the management endpoint carries this header, so the CLI can tell it
 *  reached a management endpoint and not, say, the public HTTP port. */
export const MANAGEMENT_HEADER = 'x-svc-management';
/** Who made a change, recorded in the settings history; the reviewer of a review decision. */
export const ACTOR_HEADER = 'x-svc-actor';

export const routes = {
  stats: '/v1/system/stats',
  settings: '/v1/settings',
  setting: (key: string) => `/v1/settings/${encodeURIComponent(key)}`,
  settingHistory: (key: string) => `/v1/settings/${encodeURIComponent(key)}/history`,
  settingsGroup: (group: string) => `/v1/settings/groups/${encodeURIComponent(group)}`,
  /** `GET ?kind=&mode=&state=&limit=` → `{reviews: ReviewSummary[]}` */
  reviews: '/v1/reviews',
  /** `GET` → ReviewView */
  review: (id: string) => `/v1/reviews/${encodeURIComponent(id)}`,
  /** `POST` ReviewDecisionRequest → ReviewView */
  reviewApprove: (id: string) => `/v1/reviews/${encodeURIComponent(id)}/approve`,
  /** `POST` ReviewDecisionRequest (reason required) → ReviewView */
  reviewReject: (id: string) => `/v1/reviews/${encodeURIComponent(id)}/reject`,
} as const;

/** The reviewer is the caller named by the actor header, not a field of the body. */
export interface ReviewDecisionRequest {
  reason?: string;
}

export interface ReviewListQuery {
  kind?: ReviewKind;
  mode?: ReviewMode;
  state?: ReviewState;
  limit?: number;
}

export interface SettingView {
  key: string;
  value: unknown;
  isDefault: boolean;
  version: number;
  updatedAt?: string;
  updatedBy?: string;
  type: string;
  rule: string;
  description: string;
}

export interface SettingChangeView {
  key: string;
  oldValue: unknown;
  newValue: unknown;
  version: number;
}

export interface SettingHistoryView {
  key: string;
  /** The effective value before the change: the default when the key had never been written. */
  oldValue: unknown;
  oldIsDefault: boolean;
  newValue: unknown;
  changedBy: string;
  source: string;
  replicaId?: string | null;
  changedAt: string;
}

export interface UpdateSettingsRequest {
  /** Raw CLI text per setting name of the group (`--set name=value`). */
  set: Record<string, string>;
}

export interface SystemStats {
  version: string;
  deploymentMethod: string;
  replicaId: string;
  roles: string[];
  startedAt: string;
  uptimeSeconds: number;
  connectedClients: number;
  activeActors: number;
  memory: { rssBytes: number; heapUsedBytes: number; heapTotalBytes: number; externalBytes: number };
  dependencies: Array<{ name: string; ok: boolean; latencyMs?: number; error?: string }>;
}
