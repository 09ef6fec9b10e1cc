/**
 * The client's reading of a setting's rule, as GET /api/admin/settings reports it
 * (settings/rules/*): which input fits, and the same check the server makes, so most mistakes
 * are caught before a request. The server stays the judge: its issues are shown too.
 */
import type { Schemas } from '../../../api/types.js';

export type Setting = Schemas['SettingView'];

/** What the form holds for one key: text for every kind but a boolean. */
export type Draft = string | boolean;

export type InputKind =
  | { kind: 'boolean' }
  | { kind: 'integer'; min: number; max: number }
  | { kind: 'enum'; options: string[] }
  | { kind: 'string' }
  | { kind: 'json' };

/** The value `[redacted]` stands in for a credential the listing hides (settings/secret-fields.ts). */
export const REDACTED = '[redacted]';

// integer-range.ts writes "min..=max" (then maybe " (0 means unlimited)").
const INTEGER_RULE = /^(-?\d+)\.\.=(-?\d+)/;
// password-policy.ts and its like write "one of a, b, c".
const ENUM_RULE = /^one of (.+)$/;

export function inputKind(setting: Setting): InputKind {
  switch (setting.type) {
    case 'bool':
      return { kind: 'boolean' };
    case 'i64':
    case 'u64': {
      const range = INTEGER_RULE.exec(setting.rule);
      return range ? { kind: 'integer', min: Number(range[1]), max: Number(range[2]) } : { kind: 'integer', min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER };
    }
    case 'enum': {
      const options = ENUM_RULE.exec(setting.rule)?.[1]?.split(',').map((option) => option.trim()) ?? [];
      // Without a readable list of choices, free text the server will check is better than a select missing the value.
      return options.length > 0 ? { kind: 'enum', options } : { kind: 'string' };
    }
    case 'string':
      return { kind: 'string' };
    case 'json':
      return { kind: 'json' };
  }
}

/** The form's starting text for a value. */
export function draftOf(setting: Setting, value: unknown): Draft {
  const kind = inputKind(setting).kind;
  if (kind === 'boolean') return value === true;
  if (kind === 'json') return JSON.stringify(value, null, 2);
  return value === undefined || value === null ? '' : String(value);
}

export type Parsed = { ok: true; value: unknown } | { ok: false; message: string };

/** The value a draft stands for, or what is wrong with it (the server's wording where it has one). */
export function parseDraft(setting: Setting, draft: Draft): Parsed {
  const input = inputKind(setting);
  switch (input.kind) {
    case 'boolean':
      return { ok: true, value: draft === true };
    case 'integer': {
      const text = String(draft).trim();
      const number = Number(text);
      if (text === '' || !/^-?\d+$/.test(text) || !Number.isSafeInteger(number) || number < input.min || number > input.max) {
        return { ok: false, message: `must be an integer in ${setting.rule}` };
      }
      return { ok: true, value: number };
    }
    case 'enum':
      return input.options.includes(String(draft)) ? { ok: true, value: draft } : { ok: false, message: `must be ${setting.rule}` };
    case 'string':
      return { ok: true, value: String(draft) };
    case 'json': {
      const text = String(draft);
      if (text.includes(REDACTED)) return { ok: false, message: `replace ${REDACTED} with the real secret (the listing hides credentials), or leave this setting unchanged` };
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch (error) {
        return { ok: false, message: `is not valid JSON: ${error instanceof Error ? error.message : String(error)}` };
      }
      if (Array.isArray(setting.default) && !Array.isArray(value)) return { ok: false, message: `must be ${setting.rule}` };
      return { ok: true, value };
    }
  }
}

/** Whether two JSON values are the same (key order aside, which JSON.parse keeps as written). */
export function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
