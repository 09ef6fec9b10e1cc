/**
 * The SRT converter as it was before issue 38 (regular expressions, quadratic on a line of
 * repeated `{\`), kept as the reference the linear scanner (media/subtitles/srt-to-vtt.ts) must
 * agree with, character for character, on short generated input.
 */
const TIME = String.raw`(?:(\d{1,3}):)?(\d{1,2}):(\d{1,2})(?:[,.](\d{1,3}))?`;
const TIMING = new RegExp(String.raw`^\s*${TIME}\s*-{1,2}>\s*${TIME}`);
const KEPT_TAG = /^<\/?(b|i|u)>$/i;

function vttTime(hours: string | undefined, minutes: string, seconds: string, fraction: string | undefined): string {
  const ms = fraction === undefined ? 0 : Number(fraction.padEnd(3, '0'));
  const pad = (value: number, width: number) => String(value).padStart(width, '0');
  return `${pad(Number(hours ?? 0), 2)}:${pad(Number(minutes), 2)}:${pad(Number(seconds), 2)}.${pad(ms, 3)}`;
}

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
  return out.replace(/--&gt;/g, '--\u200B&gt;');
}

function escape(text: string): string {
  return text
    .replace(/&(?![A-Za-z]+;|#\d+;|#x[0-9A-Fa-f]+;)/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}

export function referenceSrtToVtt(srt: string): string {
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
    while (i < lines.length && (lines[i] ?? '').trim() !== '' && !TIMING.test(lines[i] ?? '')) {
      text.push(cueLine(lines[i] ?? ''));
      i += 1;
    }
    if (text.length > 1 && /^\s*\d+\s*$/.test(lines[i - 1] ?? '') && TIMING.test(lines[i] ?? '')) text.pop();
    const body = text.filter((line) => line.trim() !== '');
    if (body.length > 0) cues.push(`${start} --> ${end}\n${body.join('\n')}`);
  }
  return `WEBVTT\n\n${cues.join('\n\n')}${cues.length > 0 ? '\n' : ''}`;
}
