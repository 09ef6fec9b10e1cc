import { loadLocale } from './i18n.js';
import { initialLocale, storeLocale } from './locale-choice.js';
import type { Locale } from './locales.js';

/** Switches the page's language (its catalogue, the document's lang), remembering the choice. */
export async function setLocale(language: Locale, options: { remember: boolean } = { remember: true }): Promise<void> {
  await loadLocale(language);
  document.documentElement.lang = language;
  if (options.remember) storeLocale(language);
}

/** Before the first render: the stored or browser language, its catalogue loaded. */
export async function startI18n(): Promise<void> {
  await setLocale(initialLocale(), { remember: false });
}
