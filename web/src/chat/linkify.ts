/**
 * Finds the web links in chat text, for the client to draw as anchors built as elements (never
 * HTML): only `http://` and `https://` addresses, so `javascript:`, `data:` and the like stay
 * text; punctuation that ends a sentence is not part of the link, nor is a closing bracket the
 * link did not open. An address without a scheme (www.example.com) stays text too: guessing
 * would link file names and version numbers.
 */

export type TextPiece = { kind: 'text'; text: string } | { kind: 'link'; text: string; href: string };

/** The scheme, at the start of the text or after a character that cannot be part of a word. */
const START = /(^|[^\p{L}\p{N}_])(https?:\/\/)/giu;
/** A link runs to the first space, control character, or character URLs never hold unescaped. */
const STOP = /[\s\p{Cc}<>"`{}|\\^]/u;
const TRAILING = /[.,;:!?'’”)\]…]$/u;
const PAIRS: Record<string, string> = { ')': '(', ']': '[' };

function count(text: string, char: string): number {
  let n = 0;
  for (const c of text) if (c === char) n += 1;
  return n;
}

/** Drops what ends the sentence around a link rather than the link itself. */
function trimEnd(candidate: string): string {
  let text = candidate;
  while (TRAILING.test(text)) {
    const last = text.charAt(text.length - 1);
    const open = PAIRS[last];
    // A closing bracket stays when the link opened one (https://en.wikipedia.org/wiki/Heat_(film)).
    if (open !== undefined && count(text, open) >= count(text, last)) break;
    text = text.slice(0, -1);
  }
  return text;
}

/** The address as a browser would follow it, or undefined if it is not a usable http(s) URL. */
function hrefOf(text: string): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '') return undefined;
  return url.href;
}

export function linkify(text: string): TextPiece[] {
  const pieces: TextPiece[] = [];
  let done = 0;
  for (const match of text.matchAll(START)) {
    const start = (match.index ?? 0) + (match[1]?.length ?? 0);
    if (start < done) continue;
    const rest = text.slice(start);
    const stop = rest.search(STOP);
    const candidate = trimEnd(stop === -1 ? rest : rest.slice(0, stop));
    const href = candidate.length > (match[2]?.length ?? 0) ? hrefOf(candidate) : undefined;
    if (!href) continue;
    if (start > done) pieces.push({ kind: 'text', text: text.slice(done, start) });
    pieces.push({ kind: 'link', text: candidate, href });
    done = start + candidate.length;
  }
  if (done < text.length) pieces.push({ kind: 'text', text: text.slice(done) });
  return pieces;
}
