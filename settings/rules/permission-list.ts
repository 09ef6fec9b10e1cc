import type { ValidationResult } from '../definition.js';
import { GUEST_PERMISSION_CEILING, isWithinGuestCeiling } from '../../contracts/permissions/defaults.js';
import { PERMISSIONS, isPermission, type Permission } from '../../contracts/permissions/names.js';
import { describeValue } from './describe-value.js';

/**
 * The `permissions.*DefaultPermissions` values: JSON arrays of distinct permission names.
 * Duplicates are refused rather than collapsed so that what is stored is what was written.
 */
export const PERMISSION_LIST_RULE = 'JSON array of distinct permission names';

const GUEST_NAMES = GUEST_PERMISSION_CEILING.join(', ');

export const GUEST_PERMISSION_LIST_RULE = `JSON array of distinct names from ${GUEST_NAMES}`;

export function checkPermissionList(value: unknown): ValidationResult<Permission[]> {
  if (!Array.isArray(value)) {
    return { ok: false, message: `must be a JSON array of permission names, got ${describeValue(value)}` };
  }
  const seen = new Set<Permission>();
  for (const [index, entry] of value.entries()) {
    if (!isPermission(entry)) {
      const what = typeof entry === 'string' ? `${JSON.stringify(entry)} is not a permission name` : `must be a permission name, got ${describeValue(entry)}`;
      return { ok: false, message: `element ${index}: ${what} (known: ${PERMISSIONS.join(', ')})` };
    }
    if (seen.has(entry)) {
      return { ok: false, message: `element ${index}: ${JSON.stringify(entry)} is listed more than once` };
    }
    seen.add(entry);
  }
  return { ok: true, value: [...seen] };
}

/** Guests are unauthenticated, so their value is additionally capped by the guest ceiling. */
export function checkGuestPermissionList(value: unknown): ValidationResult<Permission[]> {
  const list = checkPermissionList(value);
  if (!list.ok) return list;
  const above = list.value.find((permission) => !isWithinGuestCeiling(permission));
  if (above !== undefined) {
    return {
      ok: false,
      message: `guest permissions may only include ${GUEST_NAMES}; ${JSON.stringify(above)} is above the guest ceiling`,
    };
  }
  return list;
}
