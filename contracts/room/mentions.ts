/**
 * Mentions in chat text: `@` then a member's name as the room shows it (names may hold spaces,
 * so the longest name that fits wins). A leaf module: the room actor resolves a message's
 * mentions with it, and the web client finds the same spans to draw them as chips.
 */

export interface MentionCandidate {
  id: string;
  name: string;
}

export interface MentionSpan {
  /** Index of the `@` in the text (UTF-16 units). */
  start: number;
  /** Index just after the name. */
  end: number;
  id: string;
}

/** A letter, digit or underscore (any script): a name ends before one of these only if the word ends too. */
const WORD = /[\p{L}\p{N}_]/u;

function fold(value: string): string {
  return value.toLocaleLowerCase('en-US');
}

/**
 * Every `@name` span of `text` naming one of `candidates`, in order. An `@` inside a word
 * (an e-mail address) is not a mention; `@Ann` is not a mention of "Anna".
 */
export function findMentions(text: string, candidates: readonly MentionCandidate[]): MentionSpan[] {
  const named = candidates.filter((c) => c.name.length > 0).sort((a, b) => b.name.length - a.name.length);
  if (named.length === 0 || !text.includes('@')) return [];
  const folded = fold(text);
  const spans: MentionSpan[] = [];
  for (let at = text.indexOf('@'); at !== -1; at = text.indexOf('@', at + 1)) {
    if (at > 0 && WORD.test(text.charAt(at - 1))) continue;
    for (const candidate of named) {
      const name = fold(candidate.name);
      const end = at + 1 + name.length;
      // Folding keeps lengths for the scripts names use; a mismatch just finds no mention.
      if (folded.slice(at + 1, end) !== name) continue;
      if (end < text.length && WORD.test(text.charAt(end))) continue;
      spans.push({ start: at, end, id: candidate.id });
      at = end - 1;
      break;
    }
  }
  return spans;
}

/** The distinct ids `text` mentions, in order of first mention, without `exclude`, at most `max`. */
export function mentionedIds(text: string, candidates: readonly MentionCandidate[], exclude: string, max: number): string[] {
  const ids: string[] = [];
  for (const span of findMentions(text, candidates)) {
    if (span.id === exclude || ids.includes(span.id)) continue;
    if (ids.length === max) break;
    ids.push(span.id);
  }
  return ids;
}
