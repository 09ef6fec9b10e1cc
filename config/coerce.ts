import type { ConfigValue, StartupKey } from './keys.js';

export type Coerced = { ok: true; value: ConfigValue } | { ok: false; message: string };

/**
 * Turns one raw value into the key's type. Strings (environment, flags, quoted YAML) are
 * parsed; values that already have the right type (YAML scalars, typed flags) pass through.
 * Messages never quote the value of a sensitive key.
 */
export function coerceValue(key: StartupKey, raw: unknown): Coerced {
  const shown = key.sensitivity === 'none' ? ` (got ${describe(raw)})` : '';
  switch (key.type.kind) {
    case 'string':
      // YAML would silently turn an unquoted 0123 or a long all-digit key into a number.
      if (typeof raw === 'string') return { ok: true, value: raw };
      return { ok: false, message: `must be a string${shown}; quote the value in YAML` };
    case 'int':
    case 'port': {
      const n = typeof raw === 'number' ? raw : typeof raw === 'string' ? parseInteger(raw) : NaN;
      if (Number.isSafeInteger(n)) return { ok: true, value: n };
      return { ok: false, message: `must be an integer${shown}` };
    }
    case 'number': {
      const n = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw.trim()) : NaN;
      if (Number.isFinite(n)) return { ok: true, value: n };
      return { ok: false, message: `must be a number${shown}` };
    }
    case 'bool': {
      if (typeof raw === 'boolean') return { ok: true, value: raw };
      const b = typeof raw === 'string' ? parseBoolean(raw) : undefined;
      if (b !== undefined) return { ok: true, value: b };
      return { ok: false, message: `must be true or false${shown}` };
    }
    case 'string_list': {
      if (typeof raw === 'string') return { ok: true, value: splitList(raw) };
      if (Array.isArray(raw) && raw.every((item) => typeof item === 'string')) return { ok: true, value: [...raw] };
      return { ok: false, message: `must be a list of strings (comma-separated in the environment)${shown}` };
    }
    case 'enum': {
      const { values } = key.type;
      const text = typeof raw === 'string' ? raw.trim().toLowerCase() : undefined;
      if (text !== undefined && values.includes(text)) return { ok: true, value: text };
      return { ok: false, message: `must be one of ${values.join(', ')}${shown}` };
    }
  }
}

function parseInteger(text: string): number {
  const trimmed = text.trim();
  return /^[+-]?\d+$/.test(trimmed) ? Number(trimmed) : NaN;
}

function parseBoolean(text: string): boolean | undefined {
  switch (text.trim().toLowerCase()) {
    case 'true':
    case '1':
      return true;
    case 'false':
    case '0':
      return false;
    default:
      return undefined;
  }
}

function splitList(text: string): string[] {
  return text
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item.length > 0);
}

function describe(raw: unknown): string {
  if (raw === null) return 'null';
  if (Array.isArray(raw)) return 'a list';
  if (typeof raw === 'object') return 'a mapping';
  return JSON.stringify(raw);
}
