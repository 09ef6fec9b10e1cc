/** How admin pages write setting values, one way everywhere (times: ui/format.ts). */
import { t } from '../../i18n/i18n.js';
import type { Schemas } from '../../api/types.js';

/** A setting value as one line of text (JSON for anything but a string). */
export function shown(value: unknown): string {
  if (value === undefined) return '—';
  if (typeof value === 'string') return value === '' ? t('admin.settings.values.empty') : value;
  return JSON.stringify(value);
}

const ROOM_STATUSES: ReadonlySet<string> = new Set<Schemas['RoomStatus']>(['active', 'pending_review', 'rejected']);

/** A room's review state as people say it (a state this client does not know yet as the server spells it). */
export function roomStatusInWords(status: string): string {
  return ROOM_STATUSES.has(status) ? t(`admin.rooms.statuses.${status as Schemas['RoomStatus']}`) : status;
}

/** An account's service role as people say it (the value sent stays the server's). */
export function serviceRoleInWords(role: Schemas['User']['role']): string {
  return t(`admin.users.roles.${role}`);
}
