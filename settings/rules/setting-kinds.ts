import type { SettingChoice, SettingDefinition, SettingInput, SettingType, ValidationResult } from '../definition.js';
import { PERMISSION_WORDS } from '../../contracts/permissions/labels.js';
import type { Permission } from '../../contracts/permissions/names.js';
import { BOOLEAN_RULE, checkBoolean } from './boolean.js';
import { parseBooleanText, parseIntegerText, parseJsonText } from './cli-text.js';
import { checkIntegerInRange, integerRangeInWords, integerRangeRule, type IntegerRange } from './integer-range.js';

/**
 * Builders for the five kinds of runtime setting. Each ties a value check to the matching
 * CLI decoding, so a registry entry only states its default, its name and meaning for people,
 * and its rule. The registry adds the key, group (with its heading) and name.
 */
export type SettingBody<T> = Omit<SettingDefinition<T>, 'key' | 'group' | 'groupLabel' | 'name'>;

type Check<T> = (value: unknown) => ValidationResult<T>;

interface Common<T> {
  readonly default: T;
  /** A short human name, shown as the field's label. */
  readonly label: string;
  /** One plain sentence: what the setting does. */
  readonly description: string;
}

/** How a string or JSON setting is edited, and what it accepts in plain words. */
interface Form {
  readonly accepts: string;
  readonly input: SettingInput;
}

export function booleanSetting(spec: Common<boolean>): SettingBody<boolean> {
  return body('bool', spec, { accepts: 'On or off.', input: { kind: 'boolean' } }, BOOLEAN_RULE, checkBoolean, parseBooleanText);
}

export function integerSetting(spec: Common<number> & { type: 'i64' | 'u64'; range: IntegerRange }): SettingBody<number> {
  if (spec.type === 'u64' && spec.range.min < 0) throw new Error('a u64 setting cannot have a negative minimum');
  const rule = integerRangeRule(spec.range);
  const validate: Check<number> = (value) => checkIntegerInRange(value, spec.range);
  const { min, max } = spec.range;
  const input: SettingInput = { kind: 'integer', min, max, zeroMeansUnlimited: spec.range.zeroMeansUnlimited === true };
  const form = { accepts: `A whole number ${integerRangeInWords(spec.range)}.`, input };
  return body(spec.type, spec, form, rule, validate, (raw) => then(parseIntegerText(raw, rule), validate));
}

/** An enum string: the CLI text is the value itself; `options` are its values with their words. */
export function enumSetting<T extends string>(
  spec: Common<T> & { rule: string; validate: Check<T>; options: readonly (SettingChoice & { value: T })[] },
): SettingBody<T> {
  const form = { accepts: `One of: ${spec.options.map((option) => option.label).join(', ')}.`, input: { kind: 'choice', options: spec.options } } as const;
  return body('enum', spec, form, spec.rule, spec.validate, spec.validate);
}

export function stringSetting(spec: Common<string> & { rule: string; validate: Check<string>; accepts: string }): SettingBody<string> {
  return body('string', spec, { accepts: spec.accepts, input: { kind: 'text' } }, spec.rule, spec.validate, spec.validate);
}

/** A JSON value; `example` is shown when CLI text is not JSON at all. */
export function jsonSetting<T>(spec: Common<T> & Form & { rule: string; validate: Check<T>; example: string }): SettingBody<T> {
  return body('json', spec, spec, spec.rule, spec.validate, (raw) => then(parseJsonText(raw, spec.example), spec.validate));
}

/**
 * A JSON list of permission names, edited as one checkbox per name in `choices` (for guests,
 * the ceiling), each with the label of permissions/labels.ts.
 */
export function permissionListSetting(
  spec: Common<Permission[]> & { choices: readonly Permission[]; rule: string; validate: Check<Permission[]>; example: string },
): SettingBody<Permission[]> {
  const choices = spec.choices.map((permission) => ({ value: permission, label: PERMISSION_WORDS[permission].label }));
  const accepts = `Any of: ${choices.map((choice) => choice.label.toLowerCase()).join('; ')}.`;
  return jsonSetting({ ...spec, accepts, input: { kind: 'permissions', choices } });
}

function body<T>(
  type: SettingType,
  spec: Common<T>,
  form: Form,
  rule: string,
  validate: Check<T>,
  parse: (raw: string) => ValidationResult<T>,
): SettingBody<T> {
  return {
    type,
    // Frozen so that a caller holding a definition cannot change every later reader's default.
    default: deepFreeze(structuredClone(spec.default)),
    label: spec.label,
    description: spec.description,
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
