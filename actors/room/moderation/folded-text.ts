/**
 * Text as the word filter reads it, with the way back to what was written. The filter matches
 * on the folded form (format characters dropped, then NFKC and lower case: `foldText`, the
 * usernames' rule), so "b\u200Bad" and "ｂａｄ" are "bad"; but a message is stored as written,
 * not folded, because NFKC also rewrites what people meant (CJK full-width punctuation becomes
 * ASCII). So the text is folded piece by piece, and each unit of the folded text remembers the
 * piece of the original it came from: a match in the folded text names the original characters
 * to mask. Built in one pass, linear in the text's length.
 */
import { foldText } from '../../../contracts/text.js';

/**
 * Format characters (general category Cf): zero-width space, word joiner, soft hyphen, zero-width
 * joiners, bidi marks, embeddings, overrides and isolates. They draw nothing (or only move text
 * around), so they are not part of what a word is.
 */
const FORMAT = /^\p{Cf}$/u;
/**
 * A code point normalisation may join to the one before it: combining marks, and Hangul medial
 * and final jamo (which compose with an initial into a syllable). A piece is a character with
 * these, so folding pieces one by one folds as the whole text would.
 */
const JOINS_PREVIOUS = /^[\p{M}\u1160-\u11ff\ud7b0-\ud7ff]$/u;

/** One piece of the original: a character with its marks, or one format character. */
export interface Piece {
  /** Where it is in the original, in UTF-16 units: [start, end). */
  start: number;
  end: number;
  /** A format character, which leaves nothing in the folded text. */
  format: boolean;
}

export interface FoldedText {
  /** What the filter matches. */
  folded: string;
  pieces: Piece[];
  /** For each UTF-16 unit of `folded`, the index in `pieces` of the piece it came from. */
  pieceAt: Int32Array;
}

function codePointAt(text: string, index: number): string {
  const code = text.codePointAt(index) ?? 0;
  return String.fromCodePoint(code);
}

export function foldWithMap(original: string): FoldedText {
  const pieces: Piece[] = [];
  const parts: string[] = [];
  const owners: number[] = [];
  let index = 0;
  while (index < original.length) {
    const start = index;
    const first = codePointAt(original, index);
    index += first.length;
    if (FORMAT.test(first)) {
      pieces.push({ start, end: index, format: true });
      continue;
    }
    while (index < original.length) {
      const next = codePointAt(original, index);
      if (!JOINS_PREVIOUS.test(next)) break;
      index += next.length;
    }
    const part = foldText(original.slice(start, index));
    for (let unit = 0; unit < part.length; unit += 1) owners.push(pieces.length);
    pieces.push({ start, end: index, format: false });
    parts.push(part);
  }
  return { folded: parts.join(''), pieces, pieceAt: Int32Array.from(owners) };
}
