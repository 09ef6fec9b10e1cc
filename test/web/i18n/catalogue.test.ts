/**
 * The catalogues: Simplified Chinese has every sentence of English, keeps each one's placeholders,
 * and says it in Chinese. A string copied from English, or English left in a Chinese sentence
 * (other than the kept terms: product names, protocols, formats), fails here.
 */
import test from 'ava';
import { en } from '../../../web/src/i18n/catalogue/en/index.js';
import { KEPT_TERMS } from '../../../web/src/i18n/catalogue/terms.js';
import { zhCN } from '../../../web/src/i18n/catalogue/zh-CN/index.js';

type Tree = { readonly [key: string]: string | Tree };

/** Every leaf as [dotted key, text]. */
function leaves(tree: Tree, prefix = ''): [string, string][] {
  return Object.entries(tree).flatMap(([key, value]) => (typeof value === 'string' ? [[prefix + key, value] as [string, string]] : leaves(value, `${prefix}${key}.`)));
}

const PLURAL = /_(zero|one|two|few|many|other)$/;
/** A key without its plural suffix: the sentence a plural form belongs to. */
const sentenceOf = (key: string) => key.replace(PLURAL, '');
const placeholders = (text: string) => [...text.matchAll(/\{\{\s*([\w.]+)/g)].map((match) => match[1]).sort();

const english = new Map(leaves(en));
const chinese = new Map(leaves(zhCN));

test('every English sentence has a Chinese one, in each plural form Chinese uses, and nothing more', (t) => {
  const zhCategories = new Intl.PluralRules('zh-CN').resolvedOptions().pluralCategories;
  const missing: string[] = [];
  for (const key of english.keys()) {
    const plural = PLURAL.exec(key);
    // Chinese has one plural form ("other"): an English "_one" needs no Chinese counterpart.
    if (plural && !zhCategories.includes(plural[1] as Intl.LDMLPluralRule)) continue;
    if (!chinese.has(key)) missing.push(key);
  }
  const sentences = new Set([...english.keys()].map(sentenceOf));
  const extra = [...chinese.keys()].filter((key) => !sentences.has(sentenceOf(key)));
  t.deepEqual(missing, [], 'keys with no Chinese text');
  t.deepEqual(extra, [], 'Chinese keys with no English sentence (renamed or removed?)');
  t.true(english.size > 0);
});

test('each Chinese sentence keeps the placeholders of its English one', (t) => {
  const wrong = [...chinese].filter(([key, text]) => {
    const source = english.get(key) ?? english.get(key.replace(PLURAL, '_other'));
    return source !== undefined && placeholders(source).join() !== placeholders(text).join();
  });
  t.deepEqual(
    wrong.map(([key]) => key),
    [],
  );
});

test('no Chinese sentence is English left untranslated', (t) => {
  const kept = new Set(KEPT_TERMS.map((term) => term.toLowerCase()));
  const untranslated = [...chinese].flatMap(([key, text]) => {
    const words = text
      .replace(/\{\{[^}]*\}\}/g, ' ') // placeholders are filled at run time
      .replace(/<[^>]*>/g, ' ')
      .match(/[A-Za-z][A-Za-z0-9+.'-]*[A-Za-z0-9]|[A-Za-z]{2,}/g) ?? [];
    const english = words.filter((word) => !kept.has(word.toLowerCase()) && !/^[A-Z]$/.test(word));
    return english.length > 0 ? [`${key}: ${english.join(' ')}`] : [];
  });
  t.deepEqual(untranslated, []);
});

test('a browser language picks its catalogue: Simplified Chinese tags are Chinese, Traditional ones and others fall back', async (t) => {
  const { localeOf } = await import('../../../web/src/i18n/locales.js');
  t.is(localeOf('zh-CN'), 'zh-CN');
  t.is(localeOf('zh'), 'zh-CN');
  t.is(localeOf('zh-Hans-HK'), 'zh-CN');
  t.is(localeOf('zh-SG'), 'zh-CN');
  t.is(localeOf('zh-TW'), null);
  t.is(localeOf('zh-Hant'), null);
  t.is(localeOf('en-GB'), 'en');
  t.is(localeOf('fr-FR'), null);
});
