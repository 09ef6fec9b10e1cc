/**
 * The room's word filter: which words and phrases a room refuses or stars out of chat and
 * danmaku (docs/2026-11-26-chat-moderation.md has the rule with examples).
 *
 * Matching is on the text as a reader sees it: format characters (zero-width spaces, soft
 * hyphens, bidi controls) dropped, NFKC and case folded as usernames are (so "b\u200Bad" and
 * "ＢＡＤ" are "bad"); the message keeps what was written, with only the matched characters
 * masked (folded-text.ts maps a match back to them).
 *
 * An entry written in a script without spaces between words (Han, Hiragana, Katakana, Hangul,
 * Thai) matches anywhere, as a substring, since there is no word boundary to look for: "笨蛋" is found in "你这个笨蛋啊".
 * Any other entry matches whole words only: "ass" does not match "class" or "assistant". The
 * spaces of a phrase match any run of whitespace. Spelling games (f.u.c.k, leetspeak) are not
 * chased: a list cannot win that race, and guessing would mask innocent words.
 */
import { AppError, type FieldIssue } from '../../../errors/index.js';
import { ROOM_LIMITS } from '../../../contracts/room/limits.js';
import type { WordFilter } from '../../../contracts/room/moderation.js';
import { foldText } from '../../../contracts/text.js';
import { foldWithMap } from './folded-text.js';
import { NO_WORD_FILTER } from '../records.js';

/** The filter as editors see it (room.get with edit_room_settings, the room.wordFilter event): a copy. */
export function wordFilterView(filter: WordFilter): WordFilter {
  return { mode: filter.mode, words: [...filter.words] };
}

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

/** An entry in the form the text is matched in; stored entries are NFC and lower case only. */
function foldEntry(entry: string): string {
  return foldText(entry.replace(/\p{Cf}/gu, '')).replace(/\s+/gu, ' ').trim();
}

/** One expression for the whole list, longest entries first so a phrase wins over its words. */
function matcherOf(words: readonly string[]): RegExp | null {
  let matcher = compiled.get(words);
  if (matcher !== undefined) return matcher;
  const entries = [...new Set(words.map(foldEntry))].filter((entry) => entry.length > 0).sort((a, b) => b.length - a.length);
  matcher = entries.length === 0 ? null : new RegExp(entries.map(entryPattern).join('|'), 'giu');
  compiled.set(words, matcher);
  return matcher;
}

/** A masked character: a star as wide as it was; spaces (inside a phrase) stay. */
function maskOf(char: string): string {
  return /^\s+$/u.test(char) ? char : WIDE.test(char) ? '＊' : '*';
}

/**
 * `text` under the room's filter: unchanged when nothing matches, stars in place of each match
 * in `mask` mode; in `block` mode a match refuses the message (without saying which word, so
 * the list cannot be probed word by word any faster than by sending).
 */
export function applyWordFilter(text: string, filter: WordFilter): string {
  const matcher = matcherOf(filter.words);
  if (!matcher) return text;
  const original = text.normalize('NFC');
  const { folded, pieces, pieceAt } = foldWithMap(original);
  // Which pieces of the original a match covers: from the piece of its first folded unit to the
  // piece of its last, format characters between them included.
  const masked = new Uint8Array(pieces.length);
  let found = false;
  matcher.lastIndex = 0;
  for (let match = matcher.exec(folded); match !== null; match = matcher.exec(folded)) {
    if (match[0].length === 0) {
      matcher.lastIndex += 1;
      continue;
    }
    found = true;
    if (filter.mode === 'block') break;
    const last = pieceAt[match.index + match[0].length - 1] ?? pieces.length - 1;
    for (let piece = pieceAt[match.index] ?? 0; piece <= last; piece += 1) masked[piece] = 1;
  }
  if (!found) return text;
  if (filter.mode === 'block') throw AppError.invalid([{ key: 'text', message: 'the message contains a word this room filters' }]);
  let out = '';
  pieces.forEach((piece, index) => {
    const chars = original.slice(piece.start, piece.end);
    // A format character inside a masked word goes with it: it would only hide between stars.
    if (masked[index] === 0) out += chars;
    else if (!piece.format) out += maskOf(chars);
  });
  return out;
}
