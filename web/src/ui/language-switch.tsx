import { locale } from '../i18n/i18n.js';
import { LOCALES, LOCALE_NAMES, LOCALE_SHORT_NAMES, type Locale } from '../i18n/locales.js';
import { setLocale } from '../i18n/switch-locale.js';
import { useT } from '../i18n/use-t.js';
import './language-switch.css';

/**
 * The page's language, chosen here and remembered by this browser. A globe and the short name
 * ("中文", "EN") keep the header on one row at 360 px; the native select lies over them, unseen,
 * so the keyboard, screen readers and the phone's own picker work as with any select, listing
 * each language by its name in itself.
 */
export function LanguageSwitch() {
  const t = useT();
  return (
    <span class="language-switch">
      <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true">
        <path
          d="M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20zm6.9 6h-2.9a15.7 15.7 0 0 0-1.4-3.6A8 8 0 0 1 18.9 8zM12 4c.8 1.2 1.5 2.5 1.9 4h-3.8c.4-1.5 1.1-2.8 1.9-4zM4.3 14a8.2 8.2 0 0 1 0-4h3.4a16.5 16.5 0 0 0 0 4H4.3zm.8 2h2.9c.3 1.3.8 2.5 1.4 3.6A8 8 0 0 1 5.1 16zM8 8H5.1a8 8 0 0 1 4.3-3.6C8.8 5.5 8.3 6.7 8 8zm4 12c-.8-1.2-1.5-2.5-1.9-4h3.8c-.4 1.5-1.1 2.8-1.9 4zm2.3-6H9.7a14.7 14.7 0 0 1 0-4h4.6a14.7 14.7 0 0 1 0 4zm.3 5.6c.6-1.1 1.1-2.3 1.4-3.6h2.9a8 8 0 0 1-4.3 3.6zM16.3 14a16.5 16.5 0 0 0 0-4h3.4a8.2 8.2 0 0 1 0 4h-3.4z"
          fill="currentColor"
        />
      </svg>
      <span aria-hidden="true">{LOCALE_SHORT_NAMES[locale.value]}</span>
      <select aria-label={t('common.language')} value={locale.value} onChange={(event) => void setLocale(event.currentTarget.value as Locale)}>
        {LOCALES.map((code) => (
          <option key={code} value={code} lang={code}>
            {LOCALE_NAMES[code]}
          </option>
        ))}
      </select>
    </span>
  );
}
