import { locale } from '../i18n/i18n.js';
import { setLocale } from '../i18n/switch-locale.js';
import { LOCALES, LOCALE_NAMES, type Locale } from '../i18n/locales.js';
import { useT } from '../i18n/use-t.js';

/** The page's language, chosen here and remembered by this browser (each name in its own language). */
export function LanguageSwitch() {
  const t = useT();
  return (
    <select
      class="language-switch"
      aria-label={t('common.language')}
      value={locale.value}
      onChange={(event) => void setLocale(event.currentTarget.value as Locale)}
    >
      {LOCALES.map((code) => (
        <option key={code} value={code} lang={code}>
          {LOCALE_NAMES[code]}
        </option>
      ))}
    </select>
  );
}
