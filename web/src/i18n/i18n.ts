/**
 * The web client's one catalogue of words, through i18next. English is bundled (it is also the
 * fallback for a key a translation lacks, which the catalogue test forbids); other languages are
 * their own chunks, loaded before the first render or on a switch.
 *
 * `t` may be called anywhere (views, state, error formatting); views call `useT()` instead so
 * that a language switch re-renders them: the `locale` signal is read there. Switching is
 * switch-locale.ts (it touches the page; this module also runs in Node, under unit tests).
 */
import { signal } from '@preact/signals';
import i18next, { type TFunction } from 'i18next';
import { en } from './catalogue/en/index.js';
import type { Locale } from './locales.js';

const instance = i18next.createInstance();
void instance.init({
  lng: 'en',
  fallbackLng: 'en',
  resources: { en: { translation: en } },
  // Preact escapes what it renders; escaping here too would show "&amp;" in names.
  interpolation: { escapeValue: false },
  initAsync: false,
  returnNull: false,
});

/** The language the page is in; views that read it re-render on a switch. */
export const locale = signal<Locale>('en');

export const t: TFunction = instance.t.bind(instance);

/** Makes a language current, loading its catalogue once. */
export async function loadLocale(language: Locale): Promise<void> {
  if (!instance.hasResourceBundle(language, 'translation')) {
    const catalogue = language === 'en' ? en : (await import('./catalogue/zh-CN/index.js')).zhCN;
    instance.addResourceBundle(language, 'translation', catalogue);
  }
  await instance.changeLanguage(language);
  locale.value = language;
}
