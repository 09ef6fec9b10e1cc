/** How admin pages write times and values, one way everywhere. */

/** An ISO date string or server milliseconds as a local date and time. */
export function when(value: string | number | null | undefined): string {
  if (value === null || value === undefined || value === '') return '—';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? String(value) : date.toLocaleString();
}

/** A setting value as one line of text (JSON for anything but a string). */
export function shown(value: unknown): string {
  if (value === undefined) return '—';
  if (typeof value === 'string') return value === '' ? '(empty)' : value;
  return JSON.stringify(value);
}
