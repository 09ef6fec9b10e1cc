/** How admin pages write setting values, one way everywhere (times: ui/format.ts). */

/** A setting value as one line of text (JSON for anything but a string). */
export function shown(value: unknown): string {
  if (value === undefined) return '—';
  if (typeof value === 'string') return value === '' ? '(empty)' : value;
  return JSON.stringify(value);
}
