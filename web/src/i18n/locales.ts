/** The languages the web client speaks. */
export const LOCALES = ['en', 'zh-CN'] as const;
export type Locale = (typeof LOCALES)[number];

/** Each language's name in itself, as the switch lists it. */
export const LOCALE_NAMES: Record<Locale, string> = { en: 'English', 'zh-CN': '简体中文' };

/** The short form the header's switch shows (the language's own abbreviation). */
export const LOCALE_SHORT_NAMES: Record<Locale, string> = { en: 'EN', 'zh-CN': '中文' };

export function isLocale(value: string | null | undefined): value is Locale {
  return (LOCALES as readonly string[]).includes(value ?? '');
}

/**
 * A browser language tag as one of ours: any Chinese tag written in Simplified script or used
 * where it is (zh, zh-CN, zh-SG, zh-Hans-*) is zh-CN; Traditional Chinese (zh-TW, zh-HK, zh-Hant)
 * is not, since a Simplified page would read wrong there; any English tag is en.
 */
export function localeOf(tag: string): Locale | null {
  const lower = tag.toLowerCase();
  if (lower === 'zh' || lower.startsWith('zh-cn') || lower.startsWith('zh-sg') || lower.startsWith('zh-hans')) return 'zh-CN';
  if (lower === 'en' || lower.startsWith('en-')) return 'en';
  return null;
}
