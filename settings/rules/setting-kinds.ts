import type { SettingDefinition, SettingInput, SettingType, ValidationResult } from '../definition.js';
import { PERMISSION_WORDS } from '../../contracts/permissions/labels.js';
import { fillWords, SETTING_WORDS } from '../../contracts/settings/words.js';
import type { Permission } from '../../contracts/permissions/names.js';
import { BOOLEAN_RULE, checkBoolean } from './boolean.js';
import { parseBooleanText, parseIntegerText, parseJsonText } from './cli-text.js';
import { checkIntegerInRange, integerRangeRule, type IntegerRange } from './integer-range.js';

/**
 * Builders for the five kinds of runtime setting. Each ties a value check to the matching
 * CLI decoding, so a registry entry only states its default and its rule; its words (label,
 * description, what it accepts, its choices' words) come from contracts/settings/words.ts, which
 * the registry hands over by key, and the sentences the kinds make for themselves ("A whole
 * number from 1 to 1000.") are made from the same file's templates the web client uses. The
 * registry adds the key, group (with its heading) and name.
 */
export type SettingBody<T> = Omit<SettingDefinition<T>, 'key' | 'group' | 'groupLabel' | 'name'>;

/** A setting's own words, with its examples filled in (settings/setting-words.ts). */
export interface SettingWords {
  /** The setting's key, for the error that names words missing from contracts/settings/words.ts. */
  readonly key: string;
  readonly label: string;
  readonly description: string;
  /** What a text or JSON setting accepts; the other kinds say it from their range or choices. */
  readonly accepts?: string;
  /** What one entry of a list-of-texts setting is called. */
  readonly itemLabel?: string;
  /** The words of each value of a choice setting. */
  readonly choices?: Readonly<Record<string, string>>;
}

/** A registry entry before it has its words. */
export type SettingSpec<T> = (words: SettingWords) => SettingBody<T>;

type Check<T> = (value: unknown) => ValidationResult<T>;

interface Common<T> {
  readonly default: T;
}

/** How a JSON setting is edited; a list of texts gets its entry's name from the words. */
type JsonInput = Exclude<SettingInput, { kind: 'textList' }> | { readonly kind: 'textList' };

const ACCEPTS = SETTING_WORDS.accepts;

export function booleanSetting(spec: Common<boolean>): SettingSpec<boolean> {
  return (words) => body('bool', spec, words, { accepts: ACCEPTS.boolean, input: { kind: 'boolean' } }, BOOLEAN_RULE, checkBoolean, parseBooleanText);
}

export function integerSetting(spec: Common<number> & { type: 'i64' | 'u64'; range: IntegerRange }): SettingSpec<number> {
  if (spec.type === 'u64' && spec.range.min < 0) throw new Error('a u64 setting cannot have a negative minimum');
  const rule = integerRangeRule(spec.range);
  const validate: Check<number> = (value) => checkIntegerInRange(value, spec.range);
  const { min, max } = spec.range;
  const zeroMeansUnlimited = spec.range.zeroMeansUnlimited === true;
  const input: SettingInput = { kind: 'integer', min, max, zeroMeansUnlimited };
  const accepts = fillWords(zeroMeansUnlimited ? ACCEPTS.integerNoLimit : ACCEPTS.integer, { min, max });
  return (words) => body(spec.type, spec, words, { accepts, input }, rule, validate, (raw) => then(parseIntegerText(raw, rule), validate));
}

/** An enum string: the CLI text is the value itself; `values` are offered with their words' choices. */
export function enumSetting<T extends string>(spec: Common<T> & { rule: string; validate: Check<T>; values: readonly T[] }): SettingSpec<T> {
  return (words) => {
    const options = spec.values.map((value) => ({ value, label: wordOf(words.choices, value, words.key) }));
    const accepts = fillWords(ACCEPTS.choice, { options: options.map((option) => option.label).join(ACCEPTS.optionSeparator) });
    return body('enum', spec, words, { accepts, input: { kind: 'choice', options } }, spec.rule, spec.validate, spec.validate);
  };
}

export function stringSetting(spec: Common<string> & { rule: string; validate: Check<string> }): SettingSpec<string> {
  return (words) => body('string', spec, words, { accepts: ownAccepts(words), input: { kind: 'text' } }, spec.rule, spec.validate, spec.validate);
}

/** A JSON value; `example` is shown when CLI text is not JSON at all. */
export function jsonSetting<T>(spec: Common<T> & { input: JsonInput; rule: string; validate: Check<T>; example: string }): SettingSpec<T> {
  return (words) => {
    const input: SettingInput = spec.input.kind === 'textList' ? { kind: 'textList', itemLabel: wordOf({ itemLabel: words.itemLabel }, 'itemLabel', words.key) } : spec.input;
    return jsonBody(spec, words, { accepts: ownAccepts(words), input });
  };
}

/**
 * A JSON list of permission names, edited as one checkbox per name in `choices` (for guests,
 * the ceiling), each with the label of permissions/labels.ts.
 */
export function permissionListSetting(
  spec: Common<Permission[]> & { choices: readonly Permission[]; rule: string; validate: Check<Permission[]>; example: string },
): SettingSpec<Permission[]> {
  const choices = spec.choices.map((permission) => ({ value: permission, label: PERMISSION_WORDS[permission].label }));
  const accepts = fillWords(ACCEPTS.permissions, { permissions: choices.map((choice) => choice.label.toLowerCase()).join(ACCEPTS.permissionSeparator) });
  return (words) => jsonBody(spec, words, { accepts, input: { kind: 'permissions', choices } });
}

/** How a string or JSON setting is edited, and what it accepts in plain words. */
interface Form {
  readonly accepts: string;
  readonly input: SettingInput;
}

function jsonBody<T>(spec: Common<T> & { rule: string; validate: Check<T>; example: string }, words: SettingWords, form: Form): SettingBody<T> {
  return body('json', spec, words, form, spec.rule, spec.validate, (raw) => then(parseJsonText(raw, spec.example), spec.validate));
}

// A setting whose words lack a piece fails when the registry is built, naming the setting: every
// test and every start then says which words to add to contracts/settings/words.ts.
function ownAccepts(words: SettingWords): string {
  return wordOf({ accepts: words.accepts }, 'accepts', words.key);
}

function wordOf(table: Readonly<Record<string, string | undefined>> | undefined, name: string, setting: string): string {
  const word = table?.[name];
  if (word === undefined) throw new Error(`contracts/settings/words.ts has no "${name}" for the setting "${setting}"`);
  return word;
}

function body<T>(
  type: SettingType,
  spec: Common<T>,
  words: SettingWords,
  form: Form,
  rule: string,
  validate: Check<T>,
  parse: (raw: string) => ValidationResult<T>,
): SettingBody<T> {
  return {
    type,
    // Frozen so that a caller holding a definition cannot change every later reader's default.
    default: deepFreeze(structuredClone(spec.default)),
    label: words.label,
    description: words.description,
    accepts: form.accepts,
    input: deepFreeze(structuredClone(form.input)),
    rule,
    validate,
    parse,
  };
}

function then<A, B>(first: ValidationResult<A>, next: (value: A) => ValidationResult<B>): ValidationResult<B> {
  return first.ok ? next(first.value) : first;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}
