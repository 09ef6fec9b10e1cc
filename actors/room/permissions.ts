/**
 * Effective permissions of a room member, computed on every command so that a change of the
 * `permissions.*DefaultPermissions` runtime settings applies to live rooms at once.
 *
 *   owner   -> every permission
 *   role    -> the room's override for the role if set, else the runtime default for the role
 *   guest   -> whatever the source, intersected with the guest ceiling (also for overrides,
 *              which are checked on write too: a row written by an older release or by hand
 *              must not widen what a guest can do)
 *   member, guest overrides -> without the administration permissions, likewise
 *   a member's own override -> the role's set, plus its grants, minus its denials; grants obey
 *              the same two ceilings (checked on write too, applied again here)
 */
import { isWithinGuestCeiling } from '../../contracts/permissions/defaults.js';
import { PERMISSIONS, isAdministration, isPermission, type Permission } from '../../contracts/permissions/names.js';
import type { SettingsReader } from '../../settings/index.js';
import type { MemberPermissionOverride, PermissionOverrides, RoomRole } from '../../contracts/room/model.js';

const DEFAULT_KEYS = {
  admin: 'permissions.adminDefaultPermissions',
  member: 'permissions.memberDefaultPermissions',
  guest: 'permissions.guestDefaultPermissions',
} as const satisfies Record<RoomRole, string>;

export function rolePermissions(role: RoomRole, overrides: PermissionOverrides, settings: SettingsReader): ReadonlySet<Permission> {
  const override = overrides[role];
  const source: readonly string[] = override ?? settings.get(DEFAULT_KEYS[role]);
  const permissions = new Set<Permission>();
  for (const name of source) {
    if (!isPermission(name)) continue;
    if (role === 'guest' && !isWithinGuestCeiling(name)) continue;
    // An override stored before the rule (or by hand) does not make a member an administrator.
    if (override && role !== 'admin' && isAdministration(name)) continue;
    permissions.add(name);
  }
  return permissions;
}

/** The role's permissions with one member's own grants and denials applied. */
export function memberPermissions(
  role: RoomRole,
  overrides: PermissionOverrides,
  own: MemberPermissionOverride | undefined,
  settings: SettingsReader,
): ReadonlySet<Permission> {
  const base = rolePermissions(role, overrides, settings);
  if (!own || (own.grant.length === 0 && own.deny.length === 0)) return base;
  const permissions = new Set(base);
  for (const name of own.grant) if (isGrantable(role, name)) permissions.add(name);
  for (const name of own.deny) permissions.delete(name);
  return permissions;
}

/** What a member's own override may add for `role`: administration stays with admins, guests stay under their ceiling. */
export function isGrantable(role: RoomRole, name: string): name is Permission {
  if (!isPermission(name)) return false;
  if (role !== 'admin' && isAdministration(name)) return false;
  return role !== 'guest' || isWithinGuestCeiling(name);
}

/** Shared, never modified: built once rather than on every command of an owner. */
const EVERY_PERMISSION: ReadonlySet<Permission> = new Set(PERMISSIONS);

export function ownerPermissions(): ReadonlySet<Permission> {
  return EVERY_PERMISSION;
}

/** A stable order for showing a set (the order of `PERMISSIONS`). */
export function sortedPermissions(permissions: ReadonlySet<Permission>): Permission[] {
  return PERMISSIONS.filter((name) => permissions.has(name));
}

/**
 * What changes between two effective sets (granted or taken away) that `held` lacks, in the
 * order of `PERMISSIONS`: a caller who is not the owner may only give or take away what they
 * hold themselves (role overrides and a member's own alike).
 */
export function lackingForChange(was: ReadonlySet<Permission>, will: ReadonlySet<Permission>, held: ReadonlySet<Permission>): Permission[] {
  return PERMISSIONS.filter((name) => was.has(name) !== will.has(name) && !held.has(name));
}
