/**
 * Patterns in the OpenAPI document are read by schema-based generators (schemathesis, through
 * Python's `re`), which cannot read Unicode property escapes such as `\p{L}`. The server's
 * regexes keep them (clear, and Node's Unicode tables); the document gets the same classes
 * spelled out as code point ranges, computed from those tables when the document is built.
 */

import { classesOf } from '../../contracts/code-point-ranges.js';

const PROPERTY = /\\p\{(L|M|N|Z|Cc|Cf|White_Space)\}/g;
const cache = new Map<string, string>();

/** A pattern with every `\p{L}`, `\p{M}`, `\p{N}`, `\p{Z}`, `\p{Cc}`, `\p{Cf}` and `\p{White_Space}` (inside a character class) written as ranges. */
export function withPropertiesSpelledOut(pattern: string): string {
  computeRanges(propertiesIn(pattern));
  return pattern.replace(PROPERTY, (_match, name: string) => cache.get(name)!);
}

/** Rewrites every `pattern` in a JSON document in place. */
export function spellOutPatterns(node: unknown): void {
  // Every property the document names, computed together: one pass over the code points.
  const names = new Set<string>();
  eachPattern(node, (pattern) => {
    for (const name of propertiesIn(pattern)) names.add(name);
    return pattern;
  });
  computeRanges(names);
  eachPattern(node, withPropertiesSpelledOut);
}

function propertiesIn(pattern: string): Set<string> {
  return new Set([...pattern.matchAll(PROPERTY)].map((match) => match[1]!));
}

/** The ranges of each property not yet in the cache, in one pass (a code point none of them holds costs one test). */
function computeRanges(names: Iterable<string>): void {
  const missing = [...names].filter((name) => !cache.has(name));
  if (missing.length === 0) return;
  const members = missing.map((name) => {
    const property = new RegExp(`^\\p{${name}}$`, 'u');
    return (char: string) => property.test(char);
  });
  const within = new RegExp(`^[${missing.map((name) => `\\p{${name}}`).join('')}]$`, 'u');
  classesOf(members, within).forEach((ranges, index) => cache.set(missing[index]!, ranges));
}

function eachPattern(node: unknown, rewrite: (pattern: string) => string): void {
  if (Array.isArray(node)) {
    for (const item of node) eachPattern(item, rewrite);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const record = node as Record<string, unknown>;
  for (const [key, value] of Object.entries(record)) {
    if (key === 'pattern' && typeof value === 'string') record[key] = rewrite(value);
    else eachPattern(value, rewrite);
  }
}
