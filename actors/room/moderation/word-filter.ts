/**
 * The room's word filter: which words and phrases a room refuses or stars out of chat and
 * danmaku (docs/2026-11-26-chat-moderation.md has the rule with examples).
 *
 * Matching is case-insensitive (Unicode simple case folding) on NFC text. An entry written in a
 * script without spaces between words (Han, Hiragana, Katakana, Hangul, Thai) matches anywhere,
 * as a substring, since there is no word boundary to look for: "笨蛋" is found in "你这个笨蛋啊".
 * Any other entry matches whole words only: "ass" does not match "class" or "assistant". The
 * spaces of a phrase match any run of whitespace. Spelling games (f.u.c.k, leetspeak) are not
 * chased: a list cannot win that race, and guessing would mask innocent words.
 */
import { AppError, type FieldIssue } from '../../../errors/app-error.js';
import { ROOM_LIMITS } from '../../../contracts/room/limits.js';
import type { WordFilter } from '../../../contracts/room/moderation.js';

/** The option as the room stores it: a filter without words is off. */
export const NO_WORD_FILTER: WordFilter = Object.freeze({ mode: 'mask', words: Object.freeze([]) as unknown as string[] });

/** Scripts written without spaces between words: their entries match as substrings. */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}]/u;
const UNSPACED_SOURCE = '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}\\p{Script=Thai}';
/**
 * A letter, digit, mark or underscore of a spaced script next to a match means the match is
 * inside a longer word. A CJK neighbour does not: "我说fuck你" has "fuck" as a word.
 */
const WORD_CHAR = `(?![${UNSPACED_SOURCE}])[\\p{L}\\p{N}\\p{M}_]`;
/** Wide characters are masked with a wide star, so a masked line keeps its shape. */
const WIDE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u3000-\u303f\uff01-\uff60]/u;

const compiled = new WeakMap<readonly string[], RegExp | null>();

/**
 * Entries as a room stores them: NFC, lower case, spaces collapsed, trimmed, duplicates and
 * empty lines dropped. Entries over the character cap are reported by index in `issues`.
 */
export function checkWordFilterWords(words: readonly string[], issues: FieldIssue[]): string[] {
  const kept: string[] = [];
  const seen = new Set<string>();
  words.forEach((word, index) => {
    const entry = word.normalize('NFC').replace(/\s+/gu, ' ').trim().toLowerCase();
    if (entry.length === 0 || seen.has(entry)) return;
    if ([...entry].length > ROOM_LIMITS.wordFilterEntryMaxChars) {
      issues.push({ key: `wordFilter.words.${index}`, message: `must be at most ${ROOM_LIMITS.wordFilterEntryMaxChars} characters` });
      return;
    }
    seen.add(entry);
    kept.push(entry);
  });
  if (words.length > ROOM_LIMITS.wordFilterMaxEntries) {
    issues.push({ key: 'wordFilter.words', message: `must have at most ${ROOM_LIMITS.wordFilterMaxEntries} entries` });
  }
  return kept;
}

/** The option as a client set it: its entries checked and normalised (issues name `wordFilter.words…`). */
export function checkWordFilter(input: WordFilter, issues: FieldIssue[]): WordFilter {
  const words = checkWordFilterWords(input.words, issues);
  return words.length === 0 ? { ...NO_WORD_FILTER, mode: input.mode } : { mode: input.mode, words };
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

function entryPattern(entry: string): string {
  const body = entry.split(' ').map(escape).join('\\s+');
  if (UNSPACED.test(entry)) return body;
  return `(?<!${WORD_CHAR})${body}(?!${WORD_CHAR})`;
}

/** One expression for the whole list, longest entries first so a phrase wins over its words. */
function matcherOf(words: readonly string[]): RegExp | null {
  let matcher = compiled.get(words);
  if (matcher !== undefined) return matcher;
  const entries = [...words].sort((a, b) => b.length - a.length);
  matcher = entries.length === 0 ? null : new RegExp(entries.map(entryPattern).join('|'), 'giu');
  compiled.set(words, matcher);
  return matcher;
}

function mask(match: string): string {
  return [...match].map((char) => (/\s/u.test(char) ? char : WIDE.test(char) ? '＊' : '*')).join('');
}

/**
 * `text` under the room's filter: unchanged when nothing matches, stars in place of each match
 * in `mask` mode; in `block` mode a match refuses the message (without saying which word, so
 * the list cannot be probed word by word any faster than by sending).
 */
export function applyWordFilter(text: string, filter: WordFilter): string {
  const matcher = matcherOf(filter.words);
  if (!matcher) return text;
  const normalised = text.normalize('NFC');
  matcher.lastIndex = 0;
  if (!matcher.test(normalised)) return text;
  if (filter.mode === 'block') throw AppError.invalid([{ key: 'text', message: 'the message contains a word this room filters' }]);
  matcher.lastIndex = 0;
  return normalised.replace(matcher, mask);
}
