/**
 * The lines of a subtitle file and the caps every format shares (SUBTITLE_LIMITS): one pass over
 * the text, LF, CRLF and lone CR all ending a line, a byte-order mark dropped, and a line longer
 * than `lineMaxChars` refused with a message naming the limit and where it was broken. The
 * formats' readers (srt-to-vtt.ts, subtitle-checks.ts) scan these lines by hand, in linear
 * time: no backtracking regular expression ever sees a whole line of a file.
 */
import { SUBTITLE_LIMITS } from '../../contracts/room/subtitles.js';
import { SubtitleTextError } from './subtitle-text.js';

export interface LineLimits {
  lineMaxChars: number;
  cuesMaxCount: number;
}

const LF = 10;
const CR = 13;

/** The lines of `text`, as `text.replace(/\r\n?/g, '\n').split('\n')` gives them, each within the line cap. */
export function subtitleLines(text: string, limits: LineLimits = SUBTITLE_LIMITS): string[] {
  const lines: string[] = [];
  let start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  for (let i = start; ; i++) {
    const code = i < text.length ? text.charCodeAt(i) : -1;
    if (code !== LF && code !== CR && code !== -1) continue;
    if (i - start > limits.lineMaxChars) {
      throw new SubtitleTextError(`has a line of ${i - start} characters (line ${lines.length + 1}), more than the ${limits.lineMaxChars} a subtitle line may have`);
    }
    lines.push(text.slice(start, i));
    if (code === -1) return lines;
    if (code === CR && text.charCodeAt(i + 1) === LF) i += 1;
    start = i + 1;
  }
}

/** Refuses a file once it has more than the cue cap; `what` names its cues ("cues", "events"). */
export function requireCueCount(count: number, limits: LineLimits, what: string): void {
  if (count > limits.cuesMaxCount) throw new SubtitleTextError(`has more than ${limits.cuesMaxCount} ${what}, the most a subtitle file may have`);
}
