import type { SettingDefinition, SettingType, ValidationResult } from '../definition.js';
import { BOOLEAN_RULE, checkBoolean } from './boolean.js';
import { parseBooleanText, parseIntegerText, parseJsonText } from './cli-text.js';
import { checkIntegerInRange, integerRangeRule, type IntegerRange } from './integer-range.js';

/**
 * Builders for the five kinds of runtime setting. Each ties a value check to the matching
 * CLI decoding, so a registry entry only states its default, meaning and rule. The registry
 * adds the key, group and name.
 */
export type SettingBody<T> = Omit<SettingDefinition<T>, 'key' | 'group' | 'name'>;

type Check<T> = (value: unknown) => ValidationResult<T>;

interface Common<T> {
  readonly default: T;
  /** One line: what the setting means. */
  readonly description: string;
}

export function booleanSetting(spec: Common<boolean>): SettingBody<boolean> {
  return body('bool', spec, BOOLEAN_RULE, checkBoolean, parseBooleanText);
}

export function integerSetting(spec: Common<number> & { type: 'i64' | 'u64'; range: IntegerRange }): SettingBody<number> {
  if (spec.type === 'u64' && spec.range.min < 0) throw new Error('a u64 setting cannot have a negative minimum');
  const rule = integerRangeRule(spec.range);
  const validate: Check<number> = (value) => checkIntegerInRange(value, spec.range);
  return body(spec.type, spec, rule, validate, (raw) => then(parseIntegerText(raw, rule), validate));
}

/** An enum string: the CLI text is the value itself. */
export function enumSetting<T extends string>(spec: Common<T> & { rule: string; validate: Check<T> }): SettingBody<T> {
  return body('enum', spec, spec.rule, spec.validate, spec.validate);
}

export function stringSetting(spec: Common<string> & { rule: string; validate: Check<string> }): SettingBody<string> {
  return body('string', spec, spec.rule, spec.validate, spec.validate);
}

/** A JSON value; `example` is shown when CLI text is not JSON at all. */
export function jsonSetting<T>(spec: Common<T> & { rule: string; validate: Check<T>; example: string }): SettingBody<T> {
  return body('json', spec, spec.rule, spec.validate, (raw) => then(parseJsonText(raw, spec.example), spec.validate));
}

function body<T>(
  type: SettingType,
  spec: Common<T>,
  rule: string,
  validate: Check<T>,
  parse: (raw: string) => ValidationResult<T>,
): SettingBody<T> {
  return {
    type,
    // Frozen so that a caller holding a definition cannot change every later reader's default.
    default: deepFreeze(structuredClone(spec.default)),
    description: spec.description,
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
