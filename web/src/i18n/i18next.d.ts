import type { en } from './catalogue/en/index.js';

// Keys passed to `t` are checked against the English catalogue: a typo or a removed key is a
// type error, not a raw key on screen.
declare module 'i18next' {
  interface CustomTypeOptions {
    resources: { translation: typeof en };
    returnNull: false;
  }
}
