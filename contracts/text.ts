/**
 * The one rule for text a client sends us: what PostgreSQL can store and a log line can show.
 * PostgreSQL refuses NUL in text (the request used to end in a 500 there), UTF-8 cannot encode
 * a lone surrogate half (it would be stored as U+FFFD, a different string from the one that was
 * checked), and control characters forge or hide log lines. HTTP body schemas (which gRPC
 * reuses), room command schemas and the room's content checks all take their rule from here.
 * A leaf module (zod only), so API contracts and the web client may import it.
 */
import { z } from 'zod';

// The ranges are spelled out rather than \p{Cc}: schema-based generators (schemathesis) read the
// pattern from the OpenAPI document and cannot build values for Unicode property escapes.
/** One-line text: no C0 control, DEL or C1 control (line breaks and tab included). */
// eslint-disable-next-line no-control-regex -- naming control characters is the point
export const ONE_LINE = /^[^\u0000-\u001f\u007f-\u009f]*$/;
/** Text with lines (chat): the same, but tab and line feed allowed (the room turns CR LF into LF first). */
// eslint-disable-next-line no-control-regex -- naming control characters is the point
export const MULTI_LINE = /^[^\u0000-\u0008\u000b-\u001f\u007f-\u009f]*$/;

// eslint-disable-next-line no-control-regex -- naming control characters is the point
const MULTI_LINE_OR_CRLF = /^(?:[^\u0000-\u0008\u000b-\u001f\u007f-\u009f]|\r\n)*$/;

// In unicode mode a surrogate pair is one code point, so this matches only lone halves.
export const LONE_SURROGATE = /[\ud800-\udfff]/u;

/**
 * The form in which two texts a person reads as the same compare equal: NFKC (full-width
 * letters, ligatures and compatibility forms become their plain letters), lower case, NFKC
 * again (lower-casing can leave a non-normalised sequence). Usernames are unique in this form
 * (accounts/username.ts) and the room's word filter matches in it. For comparing only: text is
 * never stored folded, since NFKC also rewrites what people meant (CJK full-width punctuation).
 */
export function foldText(text: string): string {
  return text.normalize('NFKC').toLowerCase().normalize('NFKC');
}

/** Text that encodes to UTF-8 without replacement characters (no lone surrogates). */
export function isWellFormed(text: string): boolean {
  return !LONE_SURROGATE.test(text);
}

export const CONTROL_MESSAGE = 'must not contain control characters';
export const MULTI_LINE_CONTROL_MESSAGE = 'must not contain control characters other than newline and tab';
export const WELL_FORMED_MESSAGE = 'must be valid Unicode text (no lone surrogates)';
export const NUL_MESSAGE = 'must not contain a NUL character';

/** A string field of one line, as every identifier, name, code and address is. */
export function oneLineText(): z.ZodString {
  return z.string().regex(ONE_LINE, { error: CONTROL_MESSAGE }).refine(isWellFormed, { error: WELL_FORMED_MESSAGE });
}

/** A string field that may hold several lines (chat text; a CR LF from the client is let through, the room makes it LF). */
export function multiLineText(): z.ZodString {
  return z.string().regex(MULTI_LINE_OR_CRLF, { error: MULTI_LINE_CONTROL_MESSAGE }).refine(isWellFormed, { error: WELL_FORMED_MESSAGE });
}

// The white space String.prototype.trim removes that the line rules let through (the C0
// controls are refused anyway), spelled out for pattern readers: Python's \s is another set.
const TRIMMED_SPACE = ' \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff';

/** Characters as people count them (code points), as JSON Schema counts a string's length. */
export function charCount(text: string): number {
  let count = 0;
  for (const _ of text) count += 1;
  return count;
}

/**
 * Text the room trims before it counts it (chat, danmaku), with the room's whole rule as the
 * pattern over the text as sent: white space around it (a CR LF too), then 1..maxChars
 * characters (code points; a CR LF is one, as the room makes it LF) that start and end with
 * something else; at most totalChars characters in all, which is what bounds the request body.
 * What the document admits the room accepts, and the rest is refused here by name.
 */
export function trimmedText(options: { lines: boolean; maxChars: number; totalChars: number }): z.ZodString {
  const { lines, maxChars, totalChars } = options;
  if (maxChars < 2) throw new Error('trimmedText needs maxChars >= 2');
  const edge = lines ? `(?:[\\t\\n${TRIMMED_SPACE}]|\\r\\n)` : `[${TRIMMED_SPACE}]`;
  const kept = `[^\\u0000-\\u001f\\u007f-\\u009f${TRIMMED_SPACE}]`;
  const any = lines ? '(?:[^\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f]|\\r\\n)' : '[^\\u0000-\\u001f\\u007f-\\u009f]';
  const pattern = new RegExp(`^${edge}*${kept}(?:${any}{0,${maxChars - 2}}${kept})?${edge}*$`, 'u');
  const rule = lines ? 'without control characters other than newline and tab' : 'on one line, without control characters';
  return z
    .string()
    .regex(pattern, { error: `must be 1 to ${maxChars} characters after trimming, ${rule}` })
    .refine((text) => charCount(text) <= totalChars, { error: `must be at most ${totalChars} characters with the white space around it` })
    .refine(isWellFormed, { error: WELL_FORMED_MESSAGE })
    .meta({
      // zod's max would count UTF-16 units; the document counts code points, as the refinement does.
      override: ({ jsonSchema }: { jsonSchema: Record<string, unknown> }) => {
        jsonSchema.maxLength = totalChars;
      },
    });
}

/**
 * One-line text of at most `maxChars` characters counted as JSON Schema counts them (code
 * points; zod's max would count UTF-16 units, so a text of emoji the document admits would be
 * refused).
 */
export function oneLineChars(maxChars: number): z.ZodString {
  return oneLineText()
    .refine((text) => charCount(text) <= maxChars, { error: `must be at most ${maxChars} characters` })
    .meta({
      override: ({ jsonSchema }: { jsonSchema: Record<string, unknown> }) => {
        jsonSchema.maxLength = maxChars;
      },
    });
}

/**
 * What a label may not hold once trimmed (actors/room/validate.ts, LABEL_FORBIDDEN): line and
 * paragraph separators and the bidirectional embeddings, overrides and isolates, besides the
 * controls every one-line text refuses.
 */
const LABEL_FORBIDDEN_RANGES = '\\u0000-\\u001f\\u007f-\\u009f\\u2028\\u2029\\u202a-\\u202e\\u2066-\\u2069';
/**
 * What draws nothing (actors/room/validate.ts, VISIBLE's complement): white space, controls,
 * format characters, separators, marks on their own, and the letters that render blank. The
 * document spells the properties out (gateways/http/openapi-patterns.ts).
 */
const INVISIBLE = '\\p{White_Space}\\p{Cc}\\p{Cf}\\p{Z}\\p{M}\\u115f\\u1160\\u3164\\uffa0\\u2800';

/**
 * A one-line label the room checks (room names, media titles, subtitle names, poll questions):
 * the room's whole rule as the pattern over the text as sent: white space around it, then
 * 1..maxChars characters that start and end with something else, with no line break or
 * bidirectional override, and something visible among them; at most totalChars in all.
 */
export function labelText(options: { maxChars: number; totalChars: number }): z.ZodString {
  const { maxChars, totalChars } = options;
  if (maxChars < 2) throw new Error('labelText needs maxChars >= 2');
  const edge = `[${TRIMMED_SPACE}]`;
  const kept = `[^${LABEL_FORBIDDEN_RANGES}${TRIMMED_SPACE}]`;
  const any = `[^${LABEL_FORBIDDEN_RANGES}]`;
  // The lookahead: somewhere a character that draws something.
  const pattern = new RegExp(`^(?=[${INVISIBLE}]*[^${INVISIBLE}])${edge}*${kept}(?:${any}{0,${maxChars - 2}}${kept})?${edge}*$`, 'u');
  return z
    .string()
    .regex(pattern, { error: `must be 1 to ${maxChars} characters after trimming, something visible among them, on one line without control characters or bidirectional overrides` })
    .refine((text) => charCount(text) <= totalChars, { error: `must be at most ${totalChars} characters with the white space around it` })
    .refine(isWellFormed, { error: WELL_FORMED_MESSAGE })
    .meta({
      override: ({ jsonSchema }: { jsonSchema: Record<string, unknown> }) => {
        jsonSchema.maxLength = totalChars;
      },
    });
}

// eslint-disable-next-line no-control-regex -- naming NUL is the point
const NO_NUL = /^[^\u0000]*$/;

/**
 * Text the server never stores or logs as given: a password it hashes, SDP it relays between
 * peers (CR LF by its own format). Any character but NUL is the sender's to use (NUL is
 * refused everywhere, so no input reaches a text column with one); it must still be
 * well-formed, since two passwords with different lone halves would hash as the same UTF-8.
 */
export function privateText(): z.ZodString {
  return z.string().regex(NO_NUL, { error: NUL_MESSAGE }).refine(isWellFormed, { error: WELL_FORMED_MESSAGE });
}

/** One field a client sent that no text column can hold, by its dotted path. */
export interface UnstorableText {
  key: string;
  message: string;
}

/**
 * Every string in a decoded request (JSON body, query, path parameters, a gRPC message) that
 * PostgreSQL could not store: a NUL, or a lone surrogate half. Object keys count, since a
 * record's keys are stored too. The schemas refuse these in the fields they type; this is what
 * every transport runs once more over the whole input, so a field a schema types loosely
 * (a password, an `unknown` setting value) cannot take one to the database and a 500.
 */
export function unstorableTextIn(value: unknown, path = ''): UnstorableText[] {
  const found: UnstorableText[] = [];
  visit(value, path, found, 0);
  return found;
}

const MAX_DEPTH = 64;

function visit(value: unknown, path: string, found: UnstorableText[], depth: number): void {
  if (typeof value === 'string') {
    const message = value.includes('\u0000') ? NUL_MESSAGE : isWellFormed(value) ? undefined : WELL_FORMED_MESSAGE;
    if (message !== undefined) found.push({ key: path || 'body', message });
    return;
  }
  if (value === null || typeof value !== 'object' || depth >= MAX_DEPTH || ArrayBuffer.isView(value)) return;
  const entries: Array<[string, unknown]> = Array.isArray(value) ? value.map((item, index): [string, unknown] => [String(index), item]) : Object.entries(value);
  for (const [key, item] of entries) {
    const at = path ? `${path}.${key}` : key;
    if (!Array.isArray(value)) {
      const keyMessage = key.includes('\u0000') ? NUL_MESSAGE : isWellFormed(key) ? undefined : WELL_FORMED_MESSAGE;
      if (keyMessage !== undefined) {
        // Escaped as JSON escapes it, so the name in the answer and the logs shows what was sent.
        found.push({ key: path ? `${path}.${JSON.stringify(key).slice(1, -1)}` : JSON.stringify(key).slice(1, -1), message: `(a field name) ${keyMessage}` });
        continue;
      }
    }
    visit(item, at, found, depth + 1);
  }
}
