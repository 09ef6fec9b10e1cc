/**
 * Patterns in the OpenAPI document are read by schema-based generators (schemathesis, through
 * Python's `re`), which cannot read Unicode property escapes such as `\p{L}`. The server's
 * regexes keep them (clear, and Node's Unicode tables); the document gets the same classes
 * spelled out as code point ranges, computed from those tables when the document is built.
 */

const PROPERTY = /\\p\{(L|M|N)\}/g;
const cache = new Map<string, string>();

/** A pattern with every `\p{L}`, `\p{M}` and `\p{N}` (inside a character class) written as ranges. */
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
  let out = '';
  let start = -1;
  const close = (end: number): void => {
    out += end === start ? char(start) : `${char(start)}-${char(end)}`;
    start = -1;
  };
  for (let cp = 0; cp <= 0x10ffff; cp += 1) {
    // Surrogate halves are not characters of any property; skipping them keeps ranges from spanning them.
    const member = (cp < 0xd800 || cp > 0xdfff) && property.test(String.fromCodePoint(cp));
    if (member && start < 0) start = cp;
    else if (!member && start >= 0) close(cp - 1);
  }
  if (start >= 0) close(0x10ffff);
  return out;
}

// BMP code points as \uXXXX escapes (read alike by ECMAScript and Python); the others as the
// characters themselves, since the two languages escape them differently (\u{...} and \U...).
function char(cp: number): string {
  return cp <= 0xffff ? `\\u${cp.toString(16).padStart(4, '0')}` : String.fromCodePoint(cp);
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
