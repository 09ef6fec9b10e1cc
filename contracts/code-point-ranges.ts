/**
 * Character classes written out as code point ranges, for patterns that schema-based readers
 * (schemathesis, through Python's `re`) must understand and ECMAScript must run alike: no
 * Unicode property escapes, BMP code points as `\uXXXX` (read alike by ECMAScript and Python),
 * the others as the characters themselves (the two languages escape them differently). The
 * classes are computed from Node's Unicode tables. A leaf module (no imports).
 */

/** Whether a class admits a character (given as a string and as its code point). */
export type ClassMember = (char: string, codePoint: number) => boolean;

/** The body of a character class (no brackets) holding every code point `member` admits. */
export function classOf(member: ClassMember, within?: RegExp): string {
  return classesOf([member], within)[0]!;
}

/**
 * The bodies of several character classes, in one pass over the 1.1 million code points.
 * A regular expression test is what costs (about 20 ns a code point: a quarter of a second for
 * a few classes, in every process that builds them); `within`, a one-character expression such
 * as `/^[\p{L}\p{N}]$/u` that every admitted code point matches, lets a code point outside it
 * be judged by one test instead of one per class.
 */
export function classesOf(members: readonly ClassMember[], within?: RegExp): string[] {
  const out = members.map(() => '');
  const start = members.map(() => -1);
  const close = (index: number, end: number): void => {
    const first = start[index]!;
    out[index] += end === first ? char(first) : `${char(first)}-${char(end)}`;
    start[index] = -1;
  };
  for (let cp = 0; cp <= 0x10ffff; cp += 1) {
    // Surrogate halves are no characters; skipping them keeps ranges from spanning them.
    const surrogate = cp >= 0xd800 && cp <= 0xdfff;
    const text = surrogate ? '' : String.fromCodePoint(cp);
    const candidate = !surrogate && (within === undefined || within.test(text));
    for (let index = 0; index < members.length; index += 1) {
      const admitted = candidate && members[index]!(text, cp);
      if (admitted && start[index]! < 0) start[index] = cp;
      else if (!admitted && start[index]! >= 0) close(index, cp - 1);
    }
  }
  for (let index = 0; index < members.length; index += 1) if (start[index]! >= 0) close(index, 0x10ffff);
  return out;
}

function char(cp: number): string {
  return cp <= 0xffff ? `\\u${cp.toString(16).padStart(4, '0')}` : String.fromCodePoint(cp);
}
