/**
 * What a username and a password may be, for the account code (which normalises and checks) and
 * the API schemas (which check what a client sends, and document it).
 */

export const USERNAME_MIN_CHARS = 3;
export const USERNAME_MAX_CHARS = 32;
export const USERNAME_RULE = '3 to 32 letters, digits, "_", "-" or "." (letters of any script), starting with a letter or digit';

/** A normalised (NFKC, trimmed) username, counted in code points by the caller. */
export const USERNAME_CHARS = /^[\p{L}\p{N}][\p{L}\p{M}\p{N}_.-]*$/u;

// The white space String.prototype.trim removes that the one-line rule lets through (the C0
// controls are refused anyway), spelled out: Python's \s, which schema-based generators use,
// is another set.
const SPACE = '[ \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff]*';

/**
 * What a client may send as a username: the rule above, the length in the pattern (in code
 * points, as JSON Schema and the account code count them, not UTF-16 units as zod's min/max
 * would), with the white space around it that the account code trims. Anything else is refused
 * before normalisation, so the schema says exactly what is refused.
 */
export const USERNAME_INPUT = new RegExp(
  `^${SPACE}[\\p{L}\\p{N}][\\p{L}\\p{M}\\p{N}_.-]{${USERNAME_MIN_CHARS - 1},${USERNAME_MAX_CHARS - 1}}${SPACE}$`,
  'u',
);

/**
 * Local passwords (direct transport) follow NIST SP 800-63B: a minimum length, a generous
 * maximum, no composition rules. OPAQUE passwords never reach the server, so only clients can
 * apply this rule to them; the web client does.
 */
export const PASSWORD_MIN_CHARS = 8;
export const PASSWORD_MAX_CHARS = 256;
