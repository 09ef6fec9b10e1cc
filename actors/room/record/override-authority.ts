/**
 * Who may change which role's permission overrides. The owner (or a service caller) may change
 * any role; an admin who is not the owner may change only members' and guests' permissions, and
 * only permissions they hold themselves: otherwise an admin the owner restricted could lift the
 * restriction, or arm members with what they themselves were denied (docs/2026-11-26-room-abuse.md).
 */
import { AppError } from '../../../errors/index.js';
import type { Permission } from '../../../contracts/permissions/names.js';
import type { Access } from '../core.js';
import type { PermissionOverrides } from '../../../contracts/room/model.js';
import { lackingForChange, rolePermissions } from '../permissions.js';
import type { SettingsReader } from '../../../settings/index.js';

/** A role's stored override, as a comparable key: null follows the runtime default. */
function overrideKey(list: readonly Permission[] | undefined): string | null {
  return list === undefined ? null : [...list].sort().join(',');
}

/**
 * Refuses `before` -> `after` unless `access` may make that change. Only what changes counts:
 * a client that sends every role back as it was (the web editor does) is not refused for it.
 */
export function checkOverrideAuthority(access: Access, before: PermissionOverrides, after: PermissionOverrides, settings: SettingsReader): void {
  if (access.isOwner || access.service) return;
  if (overrideKey(before.admin) !== overrideKey(after.admin)) {
    throw new AppError('forbidden', "only the room owner can change the admin role's permissions");
  }
  for (const role of ['member', 'guest'] as const) {
    // Effective sets, so returning to the default (null) counts as the change it makes.
    const was = rolePermissions(role, before, settings);
    const will = rolePermissions(role, after, settings);
    const lacking = lackingForChange(was, will, access.permissions);
    if (lacking.length > 0) {
      throw new AppError(
        'forbidden',
        `you can only give or take away permissions you hold yourself; you lack ${lacking.join(', ')} (changing the ${role} role)`,
      );
    }
  }
}
