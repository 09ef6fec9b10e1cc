/**
 * Strength rules for `jwt.secret`. A forged token is a full account takeover, so an example
 * value copied from a README or a short human-chosen word must stop the server at start.
 */

export const MIN_JWT_SECRET_LENGTH = 32;
export const MIN_JWT_SECRET_BITS = 128;

/**
 * Marks of a value copied from an example. Words match in the case forms people write
 * (secret, SECRET, Secret) rather than case-insensitively: a random base64 secret, which must
 * practically never be rejected, contains a mixed-case "seCrET" about once in two million.
 */
const WORDS = ['example', 'placeholder', 'secret', 'password', 'passwd', 'default', 'replace', 'insecure'];
const PLACEHOLDER = new RegExp(
  [
    ...WORDS.flatMap(caseForms),
    '[Cc]hange[-_. ]?[Mm]e',
    'CHANGE[-_. ]?ME',
    // Short words only between separators, as in "your-256-bit-key" or "TODO: set me".
    `(?:^|[-_. ])(?:${[...caseForms('your'), ...caseForms('todo')].join('|')})(?:[-_. :]|$)`,
    '[xX]{6,}',
  ].join('|'),
);

function caseForms(word: string): string[] {
  return [word, word.toUpperCase(), word[0]!.toUpperCase() + word.slice(1)];
}

/** Returns why the secret is unacceptable, or undefined when it is fine. */
export function jwtSecretProblem(secret: string): string | undefined {
  const advice = 'generate one with `svc secrets generate` and inject it through SVC_JWT_SECRET or jwt.secret_file';
  if (secret.length === 0) return `is required; ${advice}`;
  const word = PLACEHOLDER.exec(secret)?.[0];
  if (word !== undefined || /^(.)\1*$/s.test(secret)) {
    const what = word !== undefined ? `contains "${word.replace(/^[-_. ]|[-_. :]$/g, '')}"` : 'is one repeated character';
    return `looks like a placeholder or example value (it ${what}); ${advice}`;
  }
  if (secret.length < MIN_JWT_SECRET_LENGTH) {
    return `is too weak: ${secret.length} characters, at least ${MIN_JWT_SECRET_LENGTH} required; ${advice}`;
  }
  const bits = estimatedEntropyBits(secret);
  if (bits < MIN_JWT_SECRET_BITS) {
    return `is too weak: about ${Math.floor(bits)} bits of entropy, at least ${MIN_JWT_SECRET_BITS} required; ${advice}`;
  }
  return undefined;
}

/**
 * Shannon entropy of the character distribution times the length: an upper bound for
 * human-made strings, close to the truth for random ones, and enough to reject "aaaabbbb..."
 * or a long word repeated.
 */
export function estimatedEntropyBits(text: string): number {
  const counts = new Map<string, number>();
  const chars = [...text];
  for (const ch of chars) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let perChar = 0;
  for (const count of counts.values()) {
    const p = count / chars.length;
    perChar -= p * Math.log2(p);
  }
  return perChar * chars.length;
}
