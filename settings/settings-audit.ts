import type { Logger } from '../observability/index.js';
import { redactSettingValue } from './secret-fields.js';
import type { AppliedChange, ChangeAuthor } from './settings-table.js';

/**
 * The audit record of writes to settings that decide who gets in and with what rights: who
 * vouches for OAuth2 identities, who may sign up and whether a reviewer sees them first,
 * guests, default permissions. One log line per changed key with `audit: "settings.update"`,
 * like the user-administration lines of accounts/admin-audit.ts, from every write path (HTTP
 * admin, management socket/CLI), with credentials inside values redacted. `settings_history`
 * keeps the full values for rollback; this line is what log-based alerting watches.
 */
export function isSecuritySensitiveSetting(key: string): boolean {
  return (
    key === 'oauth2.providers' ||
    key === 'user.enableGuest' ||
    /^user\.enable\w*Signup$/.test(key) ||
    /^\w+\.\w*NeedReview$/.test(key) ||
    key.startsWith('permissions.')
  );
}

export function auditSettingChanges(log: Logger, who: ChangeAuthor, applied: readonly AppliedChange[]): void {
  for (const change of applied) {
    if (!isSecuritySensitiveSetting(change.key)) continue;
    log.info(
      {
        audit: 'settings.update',
        actor: who.actor,
        source: who.source,
        replicaId: who.replicaId ?? null,
        key: change.key,
        oldValue: redactSettingValue(change.key, change.oldValue),
        newValue: redactSettingValue(change.key, change.newValue),
        version: change.version,
      },
      `security setting ${change.key} changed by ${who.actor}`,
    );
  }
}
