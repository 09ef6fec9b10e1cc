/**
 * SubRip (SRT) to WebVTT, for a native <track>. SRT as found in the wild: comma or dot before
 * the milliseconds (one to three digits), hours left out, CRLF or CR line ends, cue numbers
 * missing, repeated or out of order, position coordinates after the times (X1:.. Y1:..), HTML-ish
 * tags (<b> <i> <u> kept, <font ...> and others dropped) and ASS override blocks ({\an8}) left
 * in by converters. A block without a timing line is skipped, not fatal: one broken cue should
 * not cost the viewer the film.
 */

const TIME = String.raw`(?:(\d{1,3}):)?(\d{1,2}):(\d{1,2})(?:[,.](\d{1,3}))?`;
const TIMING = new RegExp(String.raw`^\s*${TIME}\s*-{1,2}>\s*${TIME}`);
const KEPT_TAG = /^<\/?(b|i|u)>$/i;

function vttTime(hours: string | undefined, minutes: string, seconds: string, fraction: string | undefined): string {
  const ms = fraction === undefined ? 0 : Number(fraction.padEnd(3, '0'));
  const pad = (value: number, width: number) => String(value).padStart(width, '0');
  return `${pad(Number(hours ?? 0), 2)}:${pad(Number(minutes), 2)}:${pad(Number(seconds), 2)}.${pad(ms, 3)}`;
}

/** One line of cue text: kept tags lowercased, other tags and {\...} overrides dropped, the rest escaped for WebVTT. */
function cueLine(line: string): string {
  const withoutOverrides = line.replace(/\{\\[^}]*\}/g, '');
  let out = '';
  for (const part of withoutOverrides.split(/(<[^<>]*>)/)) {
    if (part.startsWith('<') && part.endsWith('>') && part.length > 1) {
      if (KEPT_TAG.test(part)) out += part.toLowerCase();
      else if (/^<\/?[A-Za-z][^<>]*>$/.test(part)) continue;
      else out += escape(part);
    } else out += escape(part);
  }
  // "-->" would end the cue text for a WebVTT parser.
  return out.replace(/--&gt;/g, '--\u200B&gt;');
}

function escape(text: string): string {
  return text
    .replace(/&(?![A-Za-z]+;|#\d+;|#x[0-9A-Fa-f]+;)/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}

export function srtToVtt(srt: string): string {
  const lines = srt.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n').split('\n');
  const cues: string[] = [];
  let i = 0;
  while (i < lines.length) {
    const timing = TIMING.exec(lines[i] ?? '');
    if (!timing) {
      i += 1;
      continue;
    }
    const start = vttTime(timing[1], timing[2]!, timing[3]!, timing[4]);
    const end = vttTime(timing[5], timing[6]!, timing[7]!, timing[8]);
    i += 1;
    const text: string[] = [];
    // The cue text runs to a blank line; a timing line right after (a missing blank line) starts the next cue.
    while (i < lines.length && (lines[i] ?? '').trim() !== '' && !TIMING.test(lines[i] ?? '')) {
      text.push(cueLine(lines[i] ?? ''));
      i += 1;
    }
    // A cue number directly before the next timing line belongs to that cue, not to this text.
    if (text.length > 1 && /^\s*\d+\s*$/.test(lines[i - 1] ?? '') && TIMING.test(lines[i] ?? '')) text.pop();
    const body = text.filter((line) => line.trim() !== '');
    if (body.length > 0) cues.push(`${start} --> ${end}\n${body.join('\n')}`);
  }
  return `WEBVTT\n\n${cues.join('\n\n')}${cues.length > 0 ? '\n' : ''}`;
}

/** WebVTT as served: line ends made LF (a parser takes CR too, but one form is easier to cache and test). */
export function normalizeVtt(vtt: string): string {
  return vtt.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
}
