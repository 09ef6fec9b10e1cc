/** How admin pages write setting values, one way everywhere (times: ui/format.ts). */

/** A setting value as one line of text (JSON for anything but a string). */
export function shown(value: unknown): string {
  if (value === undefined) return '—';
  if (typeof value === 'string') return value === '' ? '(empty)' : value;
  return JSON.stringify(value);
}

/** A room's review state as people say it. */
export function roomStatusInWords(status: string): string {
  if (status === 'pending_review') return 'waiting for approval';
  if (status === 'rejected') return 'not approved';
  return status;
}
