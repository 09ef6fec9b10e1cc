import type { TFunction } from 'i18next';
import { locale, t } from './i18n.js';

/** The catalogue's `t` for a view; reading the locale here re-renders the view on a switch. */
export function useT(): TFunction {
  void locale.value;
  return t;
}
