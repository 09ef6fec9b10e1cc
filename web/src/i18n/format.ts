/**
 * Dates, numbers and durations in the page's language (Intl): 2026年11月27日 in Chinese,
 * Nov 27, 2026 in English. Reading `locale` here re-renders a view that formats on a switch.
 */
import { locale } from './i18n.js';

export function formatDateTime(date: Date, options: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeStyle: 'short' }): string {
  return new Intl.DateTimeFormat(locale.value, options).format(date);
}

export function formatNumber(value: number, options?: Intl.NumberFormatOptions): string {
  return new Intl.NumberFormat(locale.value, options).format(value);
}

/** "in 3 minutes" / "3分钟后": a wait from now, in the largest unit that reads naturally. */
export function formatWait(seconds: number): string {
  const format = new Intl.RelativeTimeFormat(locale.value, { numeric: 'always' });
  const whole = Math.max(1, Math.round(seconds));
  if (seconds < 90) return format.format(whole, 'second');
  if (seconds < 90 * 60) return format.format(Math.round(seconds / 60), 'minute');
  return format.format(Math.round(seconds / 3600), 'hour');
}
