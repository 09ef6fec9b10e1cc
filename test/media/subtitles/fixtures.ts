/**
 * Subtitle files for the tests: an SRT, a WebVTT and a styled ASS (a large magenta line the
 * browser tests can find on screen), and a Matroska video made with ffmpeg that carries an SRT
 * and an ASS stream inside it.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** One cue per 2 s up to `seconds`, "<label> N" in each: which cue shows says where playback is. */
export function countingSrt(label: string, seconds = 60): string {
  const stamp = (s: number) => `${String(Math.floor(s / 3600)).padStart(2, '0')}:${String(Math.floor(s / 60) % 60).padStart(2, '0')}:${String(s % 60).padStart(2, '0')},000`;
  const cues: string[] = [];
  for (let n = 0; n * 2 < seconds; n += 1) cues.push(`${n + 1}\r\n${stamp(n * 2)} --> ${stamp(n * 2 + 2)}\r\n<i>${label}</i> ${n}\r\n`);
  return cues.join('\r\n');
}

export function countingVtt(label: string, seconds = 60): string {
  const stamp = (s: number) => `${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}.000`;
  const cues: string[] = [];
  for (let n = 0; n * 2 < seconds; n += 1) cues.push(`${stamp(n * 2)} --> ${stamp(n * 2 + 2)}\n${label} ${n}\n`);
  return `WEBVTT\n\n${cues.join('\n')}`;
}

/**
 * A styled ASS: one big magenta (&H00FF00FF: ASS colours are AABBGGRR) line for the first
 * `seconds`, at the left of the middle (`alignment` 5, ASS's numpad) unless told.
 */
export function styledAss(text = 'STYLED', seconds = 60, alignment = 5): string {
  return [
    '[Script Info]',
    'ScriptType: v4.00+',
    'PlayResX: 640',
    'PlayResY: 360',
    '',
    '[V4+ Styles]',
    'Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding',
    `Style: Loud,Liberation Sans,72,&H00FF00FF,&H000000FF,&H00000000,&H00000000,-1,0,0,0,100,100,0,0,1,3,0,${alignment},10,10,10,1`,
    '',
    '[Events]',
    'Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text',
    `Dialogue: 0,0:00:00.00,0:${String(Math.floor(seconds / 60)).padStart(2, '0')}:${String(seconds % 60).padStart(2, '0')}.00,Loud,,0,0,0,,${text}`,
    '',
  ].join('\n');
}

/**
 * A Matroska file (VP8 + Opus, `seconds` long, 320x180) with two subtitle streams: stream 2 an
 * SRT ("Inside N" cues, English), stream 3 the styled ASS (French, titled "Styled"). Written
 * into `into` (default: a new temp folder) as `inside.mkv`.
 */
export async function makeSubtitledMkv(seconds = 20, into?: string): Promise<{ dir: string; file: string }> {
  const dir = into ?? (await mkdtemp(join(tmpdir(), 'svc-subs-')));
  await writeFile(join(dir, 'inside.srt'), countingSrt('Inside', seconds));
  await writeFile(join(dir, 'inside.ass'), styledAss('INSIDE', seconds));
  await run('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-y'],
    ...['-f', 'lavfi', '-i', `testsrc2=size=320x180:rate=15:duration=${seconds}`],
    ...['-f', 'lavfi', '-i', 'anullsrc=channel_layout=stereo:sample_rate=48000'],
    ...['-i', join(dir, 'inside.srt'), '-i', join(dir, 'inside.ass')],
    ...['-t', String(seconds), '-map', '0:v', '-map', '1:a', '-map', '2:s', '-map', '3:s'],
    ...['-c:v', 'libvpx', '-b:v', '200k', '-deadline', 'realtime', '-cpu-used', '8', '-g', '15'],
    ...['-c:a', 'libopus', '-b:a', '32k', '-c:s:0', 'srt', '-c:s:1', 'ass'],
    ...['-metadata:s:s:0', 'language=eng', '-metadata:s:s:1', 'language=fre', '-metadata:s:s:1', 'title=Styled'],
    join(dir, 'inside.mkv'),
  ]);
  return { dir, file: 'inside.mkv' };
}
