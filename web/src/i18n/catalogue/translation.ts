/**
 * The shape a translation of the English catalogue must have: every key, each a string. Plural
 * forms follow i18next's suffixes (`_one`, `_other`, …); a language keeps only the forms its
 * plural rules use, so the English-only forms (`_zero`, `_one`, `_two`, `_few`, `_many`) are
 * optional, and `_other` is always required.
 */
type PluralOnly = `${string}_${'zero' | 'one' | 'two' | 'few' | 'many'}`;

export type Translation<T> = {
  [K in keyof T as K extends PluralOnly ? never : K]: T[K] extends string ? string : Translation<T[K]>;
} & {
  [K in keyof T as K extends PluralOnly ? K : never]?: string;
};
