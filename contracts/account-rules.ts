/**
 * What a username and a password may be, for the account code (which normalises and stores) and
 * the API schemas (which check what a client sends, and document it): one rule, the pattern
 * `usernamePattern()`, applied to the name as sent by both.
 */
import { classesOf } from './code-point-ranges.js';

export const USERNAME_MIN_CHARS = 3;
export const USERNAME_MAX_CHARS = 32;
export const USERNAME_RULE = '3 to 32 letters, digits, "_", "-" or "." (letters of any script), starting with a letter or digit';
/** What the rule means for characters NFKC changes, for the document. */
export const USERNAME_NFKC_RULE =
  'a character whose compatibility form (NFKC) is several characters or another kind of character, or a mark that joins the character before it, is not admitted; full-width letters are, and are stored as their ASCII form';

/** The characters of a stored (NFKC, trimmed) username. */
export const USERNAME_CHARS = /^[\p{L}\p{N}][\p{L}\p{M}\p{N}_.-]*$/u;

// The white space String.prototype.trim removes that the one-line rule lets through (the C0
// controls are refused anyway), spelled out: Python's \s, which schema-based generators use,
// is another set.
const SPACE = '[ \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff]*';

/**
 * Marks and letters that NFKC composes with the character before them (NFKC_Quick_Check=Maybe:
 * U+0301 after "e", Hangul vowels and final consonants after a syllable's start): the second
 * code point of every primary composite's decomposition. With them a name could lose
 * characters under NFKC ("ᄀ", "ᅡ", "ᆨ" become one syllable) and fall under the minimum.
 */
function composingCodePoints(): Set<number> {
  const second = new Set<number>();
  for (let cp = 0; cp <= 0x10ffff; cp += 1) {
    if (cp >= 0xd800 && cp <= 0xdfff) continue;
    const composite = String.fromCodePoint(cp);
    const decomposed = composite.normalize('NFD');
    if (decomposed === composite) continue;
    const parts = [...decomposed];
    if (parts.length < 2) continue;
    const last = parts.pop()!;
    const start = parts.join('').normalize('NFC');
    if ([...start].length === 1 && (start + last).normalize('NFC') === composite) second.add(last.codePointAt(0)!);
  }
  return second;
}

const LETTER_OR_DIGIT = /^[\p{L}\p{N}]$/u;
const LETTER_MARK_OR_DIGIT = /^[\p{L}\p{M}\p{N}]$/u;

let pattern: string | undefined;
let compiled: RegExp | undefined;

/**
 * The username rule as a pattern over the name as sent: white space around it (trimmed), then
 * 3..32 characters (code points, as JSON Schema and the account code count them), the first a
 * letter or digit, the others letters, marks, digits, "_", "." or "-". Only characters whose
 * NFKC form is one character of the same kinds that joins nothing before it are admitted (a
 * full-width letter is, and becomes its ASCII letter; a ligature, "½", "⑴", a letter whose
 * form holds spaces, or a combining acute after "e" are not): then the stored NFKC form is a
 * name of the same rule, of the same length, and what the document admits is what is stored.
 * Computed once from Node's Unicode tables (0.2 s of CPU), on first use.
 */
export function usernamePattern(): string {
  if (pattern !== undefined) return pattern;
  const composing = composingCodePoints();
  // Both classes judge the NFKC form of the same characters: it is worked out once a character.
  let last = { char: '', normal: '' };
  const admitted = (kinds: RegExp) => (char: string): boolean => {
    if (!kinds.test(char)) return false;
    if (last.char !== char) last = { char, normal: char.normalize('NFKC') };
    const normal = last.normal;
    return [...normal].length === 1 && kinds.test(normal) && !composing.has(normal.codePointAt(0)!);
  };
  const [first, rest] = classesOf([admitted(LETTER_OR_DIGIT), admitted(LETTER_MARK_OR_DIGIT)], LETTER_MARK_OR_DIGIT);
  pattern = `^${SPACE}[${first}][${rest}_.\\-]{${USERNAME_MIN_CHARS - 1},${USERNAME_MAX_CHARS - 1}}${SPACE}$`;
  return pattern;
}

/** `usernamePattern()` compiled (Unicode mode, so the counts are code points). */
export function usernameInput(): RegExp {
  compiled ??= new RegExp(usernamePattern(), 'u');
  return compiled;
}

/**
 * Local passwords (direct transport) follow NIST SP 800-63B: a minimum length, a generous
 * maximum, no composition rules. OPAQUE passwords never reach the server, so only clients can
 * apply this rule to them; the web client does.
 */
export const PASSWORD_MIN_CHARS = 8;
export const PASSWORD_MAX_CHARS = 256;
