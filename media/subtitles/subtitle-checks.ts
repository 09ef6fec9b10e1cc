/**
 * WebVTT and ASS/SSA are served mostly as they are (a browser's <track> and JASSUB read them),
 * but not unchecked: each is read once, line by line, and refused past the caps every format
 * shares (SUBTITLE_LIMITS: line length, cues or events, size), so what the server keeps and
 * hands to every viewer is bounded the same way a converted SRT is.
 */
import { SUBTITLE_LIMITS } from '../../contracts/room/subtitles.js';
import { requireCueCount, subtitleLines, type LineLimits } from './subtitle-lines.js';

/** WebVTT as served: checked, line ends made LF and a byte-order mark dropped (one form is easier to cache and test). */
export function checkedVtt(vtt: string, limits: LineLimits = SUBTITLE_LIMITS): string {
  const lines = subtitleLines(vtt, limits);
  // A cue is its timing line; the arrow appears nowhere else in a valid file (escaped in text).
  requireCueCount(
    lines.reduce((count, line) => (line.includes('-->') ? count + 1 : count), 0),
    limits,
    'cues',
  );
  return lines.join('\n');
}

/** ASS/SSA, checked and served as it is (libass reads CR LF too). */
export function checkedAss(ass: string, limits: LineLimits = SUBTITLE_LIMITS): string {
  const lines = subtitleLines(ass, limits);
  requireCueCount(
    lines.reduce((count, line) => (isEvent(line) ? count + 1 : count), 0),
    limits,
    'events',
  );
  return ass;
}

/** An event line of the [Events] section: a Dialogue (shown) or a Comment (kept by editors). */
function isEvent(line: string): boolean {
  const head = line.trimStart().slice(0, 9).toLowerCase();
  return head.startsWith('dialogue:') || head.startsWith('comment:');
}

