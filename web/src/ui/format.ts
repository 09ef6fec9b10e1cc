import { formatDateTime } from '../i18n/format.js';

/** A server timestamp (ISO string or ms) as the reader's local date and time in the page's language; `empty` when there is none. */
export function formatTime(value: string | number | null | undefined, empty = '—'): string {
  if (value === null || value === undefined || value === '') return empty;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? String(value) : formatDateTime(date);
}
