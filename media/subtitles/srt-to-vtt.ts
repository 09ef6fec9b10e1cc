/**
 * SubRip (SRT) to WebVTT, for a native <track>. SRT as found in the wild: comma or dot before
 * the milliseconds (one to three digits), hours left out, CRLF or CR line ends, cue numbers
 * missing, repeated or out of order, position coordinates after the times (X1:.. Y1:..), HTML-ish
 * tags (<b> <i> <u> kept, <font ...> and others dropped) and ASS override blocks ({\an8}) left
 * in by converters. A block without a timing line is skipped, not fatal: one broken cue should
 * not cost the viewer the film.
 *
 * Written as a scanner, each character looked at a bounded number of times: the regular
 * expressions this replaced (issue 38) took quadratic time on a line of repeated `{\` (100,000
 * characters held the event loop 3.7 s). Its output is theirs, character for character
 * (test/media/subtitles/conversion.test.ts compares the two on generated input). Lines and cues
 * are capped (SUBTITLE_LIMITS); it runs in a subtitle worker (subtitle-workers.ts).
 */
import { SUBTITLE_LIMITS } from '../../contracts/room/subtitles.js';
import { requireCueCount, subtitleLines, type LineLimits } from './subtitle-lines.js';

interface Time {
  hours: string | undefined;
  minutes: string;
  seconds: string;
  fraction: string | undefined;
}

const isDigit = (code: number) => code >= 48 && code <= 57;
const isLetter = (code: number) => (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
const isHex = (code: number) => isDigit(code) || (code >= 65 && code <= 70) || (code >= 97 && code <= 102);

/** What `\s` matches in a JavaScript regular expression (and `trim()` removes). */
function isSpace(code: number): boolean {
  return (
    code === 32 || (code >= 9 && code <= 13) || code === 0xa0 || code === 0x1680 || (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 || code === 0x2029 || code === 0x202f || code === 0x205f || code === 0x3000 || code === 0xfeff
  );
}

function run(text: string, at: number, test: (code: number) => boolean): number {
  let end = at;
  while (end < text.length && test(text.charCodeAt(end))) end += 1;
  return end - at;
}

const skipSpaces = (text: string, at: number) => at + run(text, at, isSpace);

/**
 * A time at `at`, `[h{1,3}:]m{1,2}:s{1,2}[,.f{1,3}]`, and where it ends. `whole`: a start time,
 * which an arrow must follow, so every digit run must be used up; an end time may be followed by
 * anything (its digits past the second or third are ignored).
 */
function parseTime(text: string, at: number, whole: boolean): { time: Time; end: number } | undefined {
  const first = run(text, at, isDigit);
  const colon = (index: number) => text.charCodeAt(index) === 58;
  let hours: string | undefined;
  let minutesAt = at;
  // With hours: h{1,3} ':' m{1,2} ':' and at least one digit of seconds.
  if (first >= 1 && first <= 3 && colon(at + first)) {
    const second = run(text, at + first + 1, isDigit);
    const third = second >= 1 && second <= 2 && colon(at + first + 1 + second) ? run(text, at + first + second + 2, isDigit) : 0;
    if (third >= 1 && (!whole || third <= 2)) {
      hours = text.slice(at, at + first);
      minutesAt = at + first + 1;
    }
  }
  const minutes = run(text, minutesAt, isDigit);
  if (minutes < 1 || minutes > 2 || !colon(minutesAt + minutes)) return undefined;
  const secondsAt = minutesAt + minutes + 1;
  const secondsRun = run(text, secondsAt, isDigit);
  if (secondsRun < 1 || (whole && secondsRun > 2)) return undefined;
  const secondsEnd = secondsAt + Math.min(secondsRun, 2);
  const time: Time = { hours, minutes: text.slice(minutesAt, minutesAt + minutes), seconds: text.slice(secondsAt, secondsEnd), fraction: undefined };
  const separator = text.charCodeAt(secondsEnd);
  if (separator !== 44 && separator !== 46) return { time, end: secondsEnd };
  const fractionRun = run(text, secondsEnd + 1, isDigit);
  if (fractionRun < 1 || (whole && fractionRun > 3)) return whole ? undefined : { time, end: secondsEnd };
  const fractionEnd = secondsEnd + 1 + Math.min(fractionRun, 3);
  return { time: { ...time, fraction: text.slice(secondsEnd + 1, fractionEnd) }, end: fractionEnd };
}

/** A timing line, `start --> end` (or `->`), with spaces around and anything after the end time. */
function parseTiming(line: string): [Time, Time] | undefined {
  const start = parseTime(line, skipSpaces(line, 0), true);
  if (!start) return undefined;
  let at = skipSpaces(line, start.end);
  if (line.charCodeAt(at) !== 45) return undefined;
  at += 1;
  if (line.charCodeAt(at) === 45) at += 1;
  if (line.charCodeAt(at) !== 62) return undefined;
  const end = parseTime(line, skipSpaces(line, at + 1), false);
  return end && [start.time, end.time];
}

function vttTime({ hours, minutes, seconds, fraction }: Time): string {
  const ms = fraction === undefined ? 0 : Number(fraction.padEnd(3, '0'));
  const pad = (value: number, width: number) => String(value).padStart(width, '0');
  return `${pad(Number(hours ?? 0), 2)}:${pad(Number(minutes), 2)}:${pad(Number(seconds), 2)}.${pad(ms, 3)}`;
}

/** The line without `{\...}` override blocks: from each `{\` to the first `}` after it; an unclosed one stays. */
function withoutOverrides(line: string): string {
  let out = '';
  let kept = 0;
  let open = line.indexOf('{\\');
  while (open !== -1) {
    const close = line.indexOf('}', open + 2);
    // No `}` after this one: none after any later one either.
    if (close === -1) break;
    out += line.slice(kept, open);
    kept = close + 1;
    open = line.indexOf('{\\', kept);
  }
  return out + line.slice(kept);
}

/** Whether an `&` at `at` starts a character reference (`&name;`, `&#123;`, `&#x1F;`), which is kept as it is. */
function isReference(text: string, at: number): boolean {
  const letters = run(text, at + 1, isLetter);
  if (letters > 0) return text.charCodeAt(at + 1 + letters) === 59;
  if (text.charCodeAt(at + 1) !== 35) return false;
  const digits = run(text, at + 2, isDigit);
  if (digits > 0) return text.charCodeAt(at + 2 + digits) === 59;
  if (text.charCodeAt(at + 2) !== 120) return false;
  const hex = run(text, at + 3, isHex);
  return hex > 0 && text.charCodeAt(at + 3 + hex) === 59;
}

/** Text for WebVTT: `<` and `>` escaped, an `&` that starts no character reference too. */
function escape(text: string): string {
  let out = '';
  let kept = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const replacement = code === 60 ? '&lt;' : code === 62 ? '&gt;' : code === 38 && !isReference(text, i) ? '&amp;' : undefined;
    if (replacement === undefined) continue;
    out += text.slice(kept, i) + replacement;
    kept = i + 1;
  }
  return out + text.slice(kept);
}

/** A tag `<...>` (no `<` or `>` inside): b, i and u kept lowercased, other tags dropped, anything else escaped. */
function tag(text: string): string {
  const closing = text.charCodeAt(1) === 47;
  const name = text.slice(closing ? 2 : 1, -1);
  if (name.length === 1 && 'biuBIU'.includes(name)) return text.toLowerCase();
  const first = text.charCodeAt(closing ? 2 : 1);
  return isLetter(first) ? '' : escape(text);
}

/** One line of cue text: kept tags lowercased, other tags and {\...} overrides dropped, the rest escaped for WebVTT. */
function cueLine(line: string): string {
  const text = withoutOverrides(line);
  let out = '';
  let kept = 0;
  let at = text.indexOf('<');
  while (at !== -1) {
    // A tag runs to the first `>`, unless a `<` comes first: then that `<` may start one.
    let end = at + 1;
    while (end < text.length && text.charCodeAt(end) !== 60 && text.charCodeAt(end) !== 62) end += 1;
    if (end < text.length && text.charCodeAt(end) === 62) {
      out += escape(text.slice(kept, at)) + tag(text.slice(at, end + 1));
      kept = end + 1;
      at = text.indexOf('<', kept);
    } else at = end < text.length ? end : -1;
  }
  // "-->" would end the cue text for a WebVTT parser.
  return (out + escape(text.slice(kept))).split('--&gt;').join('--\u200B&gt;');
}

/** Whether the line is a cue number alone (spaces around allowed). */
function isCueNumber(line: string): boolean {
  const text = line.trim();
  return text.length > 0 && run(text, 0, isDigit) === text.length;
}

export function srtToVtt(srt: string, limits: LineLimits = SUBTITLE_LIMITS): string {
  const lines = subtitleLines(srt, limits);
  const cues: string[] = [];
  let timings = 0;
  let i = 0;
  while (i < lines.length) {
    const timing = parseTiming(lines[i]!);
    if (!timing) {
      i += 1;
      continue;
    }
    timings += 1;
    requireCueCount(timings, limits, 'cues');
    i += 1;
    const text: string[] = [];
    // The cue text runs to a blank line; a timing line right after (a missing blank line) starts the next cue.
    while (i < lines.length && lines[i]!.trim() !== '' && !parseTiming(lines[i]!)) {
      text.push(cueLine(lines[i]!));
      i += 1;
    }
    // A cue number directly before the next timing line belongs to that cue, not to this text.
    if (text.length > 1 && isCueNumber(lines[i - 1]!) && i < lines.length && parseTiming(lines[i]!)) text.pop();
    const body = text.filter((line) => line.trim() !== '');
    if (body.length > 0) cues.push(`${vttTime(timing[0])} --> ${vttTime(timing[1])}\n${body.join('\n')}`);
  }
  return `WEBVTT\n\n${cues.join('\n\n')}${cues.length > 0 ? '\n' : ''}`;
}

