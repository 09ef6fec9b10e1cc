/**
 * Patterns in the OpenAPI document are read by schema-based generators (schemathesis, through
 * Python's `re`), which cannot read Unicode property escapes such as `\p{L}`. The server's
 * regexes keep them (clear, and Node's Unicode tables); the document gets the same classes
 * spelled out as code point ranges, computed from those tables when the document is built.
 */

import { classOf } from '../../contracts/code-point-ranges.js';

const PROPERTY = /\\p\{(L|M|N|Z|Cc|Cf|White_Space)\}/g;
const cache = new Map<string, string>();

/** A pattern with every `\p{L}`, `\p{M}`, `\p{N}`, `\p{Z}`, `\p{Cc}`, `\p{Cf}` and `\p{White_Space}` (inside a character class) written as ranges. */
export function withPropertiesSpelledOut(pattern: string): string {
  return pattern.replace(PROPERTY, (_match, name: string) => {
    let ranges = cache.get(name);
    if (ranges === undefined) {
      ranges = rangesOf(new RegExp(`^\\p{${name}}$`, 'u'));
      cache.set(name, ranges);
    }
    return ranges;
  });
}

function rangesOf(property: RegExp): string {
  return classOf((char) => property.test(char));
}

/** Rewrites every `pattern` in a JSON document in place. */
export function spellOutPatterns(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) spellOutPatterns(item);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const record = node as Record<string, unknown>;
  for (const [key, value] of Object.entries(record)) {
    if (key === 'pattern' && typeof value === 'string') record[key] = withPropertiesSpelledOut(value);
    else spellOutPatterns(value);
  }
}
