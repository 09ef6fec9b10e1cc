/**
 * Character classes written out as code point ranges, for patterns that schema-based readers
 * (schemathesis, through Python's `re`) must understand and ECMAScript must run alike: no
 * Unicode property escapes, BMP code points as `\uXXXX` (read alike by ECMAScript and Python),
 * the others as the characters themselves (the two languages escape them differently). The
 * classes are computed from Node's Unicode tables. A leaf module (no imports).
 */

/** The body of a character class (no brackets) holding every code point `member` admits. */
export function classOf(member: (char: string, codePoint: number) => boolean): string {
  let out = '';
  let start = -1;
  const close = (end: number): void => {
    out += end === start ? char(start) : `${char(start)}-${char(end)}`;
    start = -1;
  };
  for (let cp = 0; cp <= 0x10ffff; cp += 1) {
    // Surrogate halves are no characters; skipping them keeps ranges from spanning them.
    const admitted = (cp < 0xd800 || cp > 0xdfff) && member(String.fromCodePoint(cp), cp);
    if (admitted && start < 0) start = cp;
    else if (!admitted && start >= 0) close(cp - 1);
  }
  if (start >= 0) close(0x10ffff);
  return out;
}

function char(cp: number): string {
  return cp <= 0xffff ? `\\u${cp.toString(16).padStart(4, '0')}` : String.fromCodePoint(cp);
}
