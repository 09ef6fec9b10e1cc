/**
 * A runtime setting's English words for the server, by key, from the one place they are written
 * (contracts/settings/words.ts, also the web client's English catalogue), with the examples
 * inside its sentences filled in: what the registry hands each entry's builder.
 */
import { fillWords, SETTING_EXAMPLES, SETTING_WORDS } from '../contracts/settings/words.js';
import type { SettingWords } from './rules/setting-kinds.js';

type Table<T> = Readonly<Record<string, Readonly<Record<string, T>>>>;

interface KeyWords {
  readonly label: string;
  readonly description: string;
  readonly accepts?: string;
  readonly itemLabel?: string;
}

// The words' own types are precise per key; here they are looked up by a key known at run time.
const KEYS = SETTING_WORDS.keys as Table<KeyWords>;
const CHOICES = SETTING_WORDS.choices as Table<Readonly<Record<string, string>>>;

export function settingWordsOf(key: string): SettingWords {
  const dot = key.indexOf('.');
  const group = key.slice(0, dot);
  const name = key.slice(dot + 1);
  const own = Object.hasOwn(KEYS, group) && Object.hasOwn(KEYS[group]!, name) ? KEYS[group]![name]! : undefined;
  if (own === undefined) throw new Error(`contracts/settings/words.ts has no words for the setting "${key}"`);
  const examples = SETTING_EXAMPLES[key] ?? {};
  const say = (sentence: string): string => fillWords(sentence, examples);
  const choices = Object.hasOwn(CHOICES, group) ? CHOICES[group]![name] : undefined;
  return {
    key,
    label: say(own.label),
    description: say(own.description),
    ...(own.accepts !== undefined && { accepts: say(own.accepts) }),
    ...(own.itemLabel !== undefined && { itemLabel: own.itemLabel }),
    ...(choices !== undefined && { choices }),
  };
}
