/**
 * Which language a visitor gets: the one they chose (kept per browser), else the first of the
 * browser's languages we have, else English.
 */
import { isLocale, localeOf, type Locale } from './locales.js';

const STORAGE_KEY = 'svc.locale';

/** The language to start in: the stored choice, else the browser's preference order. */
export function initialLocale(): Locale {
  const stored = readStored();
  if (isLocale(stored)) return stored;
  for (const tag of navigator.languages ?? [navigator.language]) {
    const locale = localeOf(tag);
    if (locale) return locale;
  }
  return 'en';
}

export function storeLocale(locale: Locale): void {
  try {
    localStorage.setItem(STORAGE_KEY, locale);
  } catch {
    // Storage can be off (private windows); the choice then lasts for this page only.
  }
}

function readStored(): string | null {
  try {
    return localStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}
