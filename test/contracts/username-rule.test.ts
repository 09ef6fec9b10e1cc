/**
 * The username the API document admits is the one the account code accepts: the document's
 * `Username` pattern (what schema-based clients and generators read) and `parseUsername` (what
 * stores the account) agree on every character in every position, separators and characters
 * that NFKC changes included.
 */
import test from 'ava';
import { AppError } from '../../errors/app-error.js';
import { parseUsername } from '../../accounts/username.js';
import { usernameInput, usernamePattern } from '../../contracts/account-rules.js';
import { buildOpenApiDocument } from '../../gateways/http/openapi.js';

const document = JSON.parse(JSON.stringify(buildOpenApiDocument())) as { components: { schemas: { Username: { pattern: string } } } };
const documented = new RegExp(document.components.schemas.Username.pattern, 'u');

function accepted(name: string): boolean {
  try {
    parseUsername(name);
    return true;
  } catch (err) {
    if (err instanceof AppError && err.code === 'invalid_argument') return false;
    throw err;
  }
}

/** Every code point but the surrogate halves (JSON text cannot carry them alone). */
function* codePoints(): Generator<string> {
  for (let cp = 0; cp <= 0x10ffff; cp++) if (cp < 0xd800 || cp > 0xdfff) yield String.fromCodePoint(cp);
}

test('the document states the account rule: its pattern is the one the account code runs', (t) => {
  t.is(document.components.schemas.Username.pattern, usernamePattern());
  t.is(usernameInput().source, documented.source);
});

test('every character, first, inside or last: a name the document admits is accepted and stored within the rule', (t) => {
  const disagreements: string[] = [];
  for (const c of codePoints()) {
    for (const name of [`${c}bc`, `a${c}c`, `ab${c}`]) {
      // A name the document refuses, the account code refuses with the same pattern (above).
      if (!documented.test(name)) continue;
      if (!accepted(name)) disagreements.push(`${JSON.stringify(name)} (U+${c.codePointAt(0)!.toString(16).toUpperCase()})`);
      else if ([...parseUsername(name).name].length !== 3) disagreements.push(`${JSON.stringify(name)} is stored as ${JSON.stringify(parseUsername(name).name)}`);
    }
  }
  t.deepEqual(disagreements.slice(0, 20), [], `${disagreements.length} names admitted and refused`);
});

test('names whose form NFKC changes: separators, expansions, compositions and reorderings of marks', (t) => {
  const names = [
    'ab\u202fcd', // a narrow no-break space inside
    '\u202fabc\u202f', // around, where it is trimmed
    'a\ufdfab', // a letter whose NFKC has spaces
    '\u2474ab', // a number whose NFKC has parentheses
    'ab\u00bd', // a fraction: 1⁄2
    'e\u0301ab', // a mark that composes with the letter before it
    '\u1100\u1161\u11a8', // Hangul jamo that compose into one syllable
    '\uff41\uff42\uff43', // full-width letters
    'a\u0350\u0316b', // marks NFKC reorders
    '\u01d6\u0323ab', // a letter whose decomposition reorders with the next mark and grows
    'ﬁab', // a ligature
    'abc\u0345', // a mark of class 240
  ];
  for (const name of names) t.is(documented.test(name), accepted(name), JSON.stringify(name));
  // What the document admits is stored within the rule: 3 to 32 characters of its classes.
  for (const name of names.filter((candidate) => documented.test(candidate))) {
    const stored = parseUsername(name).name;
    t.true([...stored].length >= 3 && [...stored].length <= 32, `${JSON.stringify(name)} is stored as ${JSON.stringify(stored)}`);
    t.regex(stored, /^[\p{L}\p{N}][\p{L}\p{M}\p{N}_.-]*$/u, JSON.stringify(name));
  }
  // Full-width letters stay one name with their ASCII form.
  t.is(parseUsername('\uff41\uff42\uff43').key, parseUsername('abc').key);
});
