/**
 * SRT as people have it becomes WebVTT a browser shows (media/subtitles/srt-to-vtt.ts), exactly
 * as the regular expressions it replaced did but in linear time, within the caps every format
 * shares (subtitle-lines.ts, subtitle-checks.ts); and subtitle bytes become text only when they
 * are text (subtitle-text.ts).
 */
import test from 'ava';
import { srtToVtt } from '../../../media/subtitles/srt-to-vtt.js';
import { decodeSubtitle, sniffFormat, SubtitleTextError } from '../../../media/subtitles/subtitle-text.js';
import { asServed } from '../../../media/subtitles/subtitle-tracks.js';
import { formatFromName } from '../../../contracts/room/subtitles.js';
import { checkedAss, checkedVtt } from '../../../media/subtitles/subtitle-checks.js';
import { subtitleLines } from '../../../media/subtitles/subtitle-lines.js';
import { runSubtitleJob } from '../../../media/subtitles/subtitle-read.js';
import { styledAss } from './fixtures.js';
import { referenceSrtToVtt } from './srt-reference.js';

const styledAssText = styledAss();

test('a plain SRT becomes WebVTT with dot milliseconds', (t) => {
  const srt = '1\n00:00:01,000 --> 00:00:02,500\nHello\n\n2\n00:00:03,000 --> 00:00:04,000\nTwo\nlines\n';
  t.is(srtToVtt(srt), 'WEBVTT\n\n00:00:01.000 --> 00:00:02.500\nHello\n\n00:00:03.000 --> 00:00:04.000\nTwo\nlines\n');
});

test('CRLF and lone CR line ends, a byte-order mark and trailing spaces are read', (t) => {
  const srt = '\uFEFF1\r\n00:00:01,000 --> 00:00:02,000  \r\nWindows\r\n\r\n2\r00:00:02,000 --> 00:00:03,000\rOld Mac\r';
  t.is(srtToVtt(srt), 'WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nWindows\n\n00:00:02.000 --> 00:00:03.000\nOld Mac\n');
});

test('numbering gaps, missing and repeated numbers, and a missing blank line still give every cue', (t) => {
  const srt = '7\n00:00:01,000 --> 00:00:02,000\nA\n\n00:00:02,000 --> 00:00:03,000\nB\n3\n00:00:03,000 --> 00:00:04,000\nC\n\n3\n00:00:04,000 --> 00:00:05,000\nD\n';
  const cues = srtToVtt(srt).split('\n\n').slice(1);
  t.deepEqual(
    cues.map((cue) => cue.trim()),
    ['00:00:01.000 --> 00:00:02.000\nA', '00:00:02.000 --> 00:00:03.000\nB', '00:00:03.000 --> 00:00:04.000\nC', '00:00:04.000 --> 00:00:05.000\nD'],
  );
});

test('short and dotted milliseconds, hours left out and position coordinates are normalised', (t) => {
  const srt = '1\n01:02:03.5 --> 01:02:04,25 X1:100 X2:200 Y1:10 Y2:20\nA\n\n2\n02:03,000 --> 02:04,000\nB\n';
  t.is(srtToVtt(srt), 'WEBVTT\n\n01:02:03.500 --> 01:02:04.250\nA\n\n00:02:03.000 --> 00:02:04.000\nB\n');
});

test('b, i and u tags are kept, font and unknown tags dropped, ASS overrides removed, stray < & escaped', (t) => {
  const srt = '1\n00:00:01,000 --> 00:00:02,000\n{\\an8}<I>Quiet</I> <font color="#ff0000">red</font> <b>bold</b>\n1 < 2 & Tom &amp; Jerry --> end\n';
  t.is(srtToVtt(srt), 'WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n<i>Quiet</i> red <b>bold</b>\n1 &lt; 2 &amp; Tom &amp; Jerry --\u200B&gt; end\n');
});

test('a block without a timing line and an empty cue are skipped, not fatal', (t) => {
  const srt = 'garbage at the top\n\n1\n00:00:01,000 --> 00:00:02,000\n\n2\nno timing here\n\n3\n00:00:05,000 --> 00:00:06,000\nKept\n';
  t.is(srtToVtt(srt), 'WEBVTT\n\n00:00:05.000 --> 00:00:06.000\nKept\n');
});

test('UTF-8 with or without a byte-order mark, and UTF-16 with one, decode to the same text', (t) => {
  const text = '1\n00:00:01,000 --> 00:00:02,000\nÇa va, 你好\n';
  t.is(decodeSubtitle(Buffer.from(text, 'utf8')), text);
  t.is(decodeSubtitle(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text, 'utf8')])), text);
  t.is(decodeSubtitle(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')])), text);
  const be = Buffer.from(text, 'utf16le').swap16();
  t.is(decodeSubtitle(Buffer.concat([Buffer.from([0xfe, 0xff]), be])), text);
});

test('Latin-1 bytes and binary are refused, saying what is expected', (t) => {
  const latin1 = Buffer.from('1\n00:00:01,000 --> 00:00:02,000\nCaf\xe9\n', 'latin1');
  t.throws(() => decodeSubtitle(latin1), { instanceOf: SubtitleTextError, message: /UTF-8.*UTF-16 with a byte-order mark/ });
  t.throws(() => decodeSubtitle(Buffer.from([0x00, 0x01, 0x02])), { instanceOf: SubtitleTextError });
});

test('the text decides the format when it says one; a declared one it contradicts is refused', (t) => {
  t.is(sniffFormat('WEBVTT\n\n00:01.000 --> 00:02.000\nA', 'srt'), 'vtt');
  t.is(sniffFormat('[Script Info]\nScriptType: v4.00+', undefined), 'ass');
  t.is(sniffFormat('[Script Info]\nScriptType: v4.00', 'ssa'), 'ssa');
  t.is(sniffFormat('1\n00:00:01,000 --> 00:00:02,000\nA', 'vtt'), 'srt');
  t.throws(() => sniffFormat('just some words', 'ass'), { message: /\[Script Info\]/ });
  t.is(asServed('1\n00:00:01,000 --> 00:00:02,000\nA\n', undefined).format, 'vtt');
  t.is(asServed('WEBVTT\r\n\r\n00:01.000 --> 00:02.000\r\nA\r\n', 'vtt').text, 'WEBVTT\n\n00:01.000 --> 00:02.000\nA\n');
  t.is(checkedVtt('\uFEFFWEBVTT\r\n'), 'WEBVTT\n');
});

test('a URL or file name names its format', (t) => {
  t.is(formatFromName('https://example.com/subs/movie.en.SRT?token=1'), 'srt');
  t.is(formatFromName('movie.ass'), 'ass');
  t.is(formatFromName('https://example.com/a.webvtt'), 'vtt');
  t.is(formatFromName('https://example.com/subtitles'), undefined);
});

/** A small seeded generator (mulberry32): the same cases on every run. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Pieces SRT is made of, and the characters the old expressions treated specially. */
const PIECES = [
  '0', '1', '00', '12', '123', '1234', ':', ',', '.', ' ', '\t', '\u00a0', '\u3000', '-', '--', '->', '-->', '--->', '>', '<', '</', '/',
  'b', 'i', 'u', 'B', 'I', 'x', 'font color="r"', '&', '&amp;', '&#12;', '&#x1F;', '&#x;', '&a', '#', ';', '{', '\\', '{\\', '}', '{\\an8}',
  '\n', '\n', '\n\n', '\r\n', '\r', 'X1:10', 'a', 'Z', 'é', '\uFEFF',
];
const TIMINGS = ['00:00:01,000 --> 00:00:02,000', '1:02:03.5 -> 1:02:04,25 X1:1', '02:03,000-->02:04,0001', ' 001:2:3 --> 4:5', '00:00:012 --> 1:2', '9:9:9,1234 --> 1:1:1'];

function generated(next: () => number): string {
  let text = '';
  const parts = Math.floor(next() * 40);
  for (let i = 0; i < parts; i++) {
    text += next() < 0.15 ? `${TIMINGS[Math.floor(next() * TIMINGS.length)]!}\n` : PIECES[Math.floor(next() * PIECES.length)]!;
  }
  return text;
}

test('the linear scanner converts exactly as the regular expressions it replaced did (40,000 generated files)', (t) => {
  const next = random(38);
  let differing = 0;
  let first: string | undefined;
  for (let n = 0; n < 20_000; n++) {
    const srt = generated(next);
    if (srtToVtt(srt) !== referenceSrtToVtt(srt)) {
      differing += 1;
      first ??= JSON.stringify(srt);
    }
  }
  // Timing lines above all: times of 0-4 digits per field, every separator and arrow, anything after.
  const pick = (choices: string[]) => choices[Math.floor(next() * choices.length)]!;
  const digits = () => pick(['', '5', '5', '59', '59', '59', '593', '5934']);
  const time = () => (next() < 0.6 ? `${digits()}:` : '') + digits() + pick([':', ':', ':', ',']) + digits() + (next() < 0.6 ? pick([',', '.', '.', ':']) + digits() : '');
  for (let n = 0; n < 20_000; n++) {
    const line = pick(['', ' ', '\t ']) + time() + pick(['', ' ', '  ']) + pick(['-->', '->', '--->', '>', '-- >', '-']) + pick(['', ' ']) + time() + pick(['', ' X1:1', '5', ',', '.7', 'x']);
    const srt = `${line}\ntext\n`;
    if (srtToVtt(srt) !== referenceSrtToVtt(srt)) {
      differing += 1;
      first ??= JSON.stringify(srt);
    }
  }
  t.is(differing, 0, `first differing input: ${first}`);
  // And on every line shape the tests above use.
  const timing = '00:00:01,000 --> 00:00:02,000';
  for (const line of ['<b>a</b> <B>b</B> <x y="1">c</x> <> </> <1> a<b<i>c', '&a; &#1; &#x1f; &x &#; &#x; & && &amp;', '{\\an8}a{\\b1}b{\\ c} {\\', 'a --> b -->> <-->']) {
    const srt = `1\n${timing}\n${line}\n`;
    t.is(srtToVtt(srt), referenceSrtToVtt(srt), line);
  }
});

test('lines are split as the old expressions split them, and a line or cue count over the cap is refused naming it', (t) => {
  const next = random(7);
  for (let n = 0; n < 2000; n++) {
    const text = generated(next);
    t.deepEqual(subtitleLines(text), text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n').split('\n'));
  }
  const limits = { lineMaxChars: 10, cuesMaxCount: 2 };
  t.throws(() => subtitleLines('short\r\n12345678901\n', limits), { instanceOf: SubtitleTextError, message: 'has a line of 11 characters (line 2), more than the 10 a subtitle line may have' });
  t.deepEqual(subtitleLines('1234567890', limits), ['1234567890']);
  const cues = (count: number) => Array.from({ length: count }, (_, n) => `0:${n}.0 --> 0:${n + 1}.0\nx\n`).join('\n');
  t.notThrows(() => srtToVtt(cues(2), { lineMaxChars: 100, cuesMaxCount: 2 }));
  t.throws(() => srtToVtt(cues(3), { lineMaxChars: 100, cuesMaxCount: 2 }), { instanceOf: SubtitleTextError, message: 'has more than 2 cues, the most a subtitle file may have' });
  t.throws(() => checkedVtt(`WEBVTT\n\n${cues(3)}`, { lineMaxChars: 100, cuesMaxCount: 2 }), { message: /more than 2 cues/ });
  t.is(checkedVtt('\uFEFFWEBVTT\r\n\r\n00:01.000 --> 00:02.000\rA\r\n'), 'WEBVTT\n\n00:01.000 --> 00:02.000\nA\n');
  const ass = `[Script Info]\n[Events]\nDialogue: 0,a\n  comment: 0,b\nDialogue: 0,c\n`;
  t.is(checkedAss(ass, { lineMaxChars: 100, cuesMaxCount: 3 }), ass);
  t.throws(() => checkedAss(ass, { lineMaxChars: 100, cuesMaxCount: 2 }), { message: 'has more than 2 events, the most a subtitle file may have' });
});

test('a line of 2 MiB of repeated override openings converts (the old expression needed about half an hour)', (t) => {
  const line = '{\\'.repeat(1024 * 1024);
  const limits = { lineMaxChars: 4 * 1024 * 1024, cuesMaxCount: 10 };
  t.is(srtToVtt(`1\n00:00:01,000 --> 00:00:02,000\n${line}\n`, limits), `WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n${line}\n`);
  t.is(srtToVtt(`1\n00:00:01,000 --> 00:00:02,000\n${line}}\n`, limits), 'WEBVTT\n\n', 'one closing brace ends the first override: the line is empty');
  const tags = '<'.repeat(1024 * 1024) + '&'.repeat(1024 * 1024);
  t.is(srtToVtt(`00:00:01,000 --> 00:00:02,000\n${tags}\n`, limits).length, 'WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n'.length + 1024 * 1024 * 9 + 1);
});

test('an upload is stored as given once it would serve; a file is served within the caps', (t) => {
  const srt = Buffer.from('1\n00:00:01,000 --> 00:00:02,000\nA\n', 'utf8');
  t.deepEqual(runSubtitleJob({ kind: 'upload', bytes: srt }), { format: 'srt', text: srt.toString('utf8') });
  t.deepEqual(runSubtitleJob({ kind: 'serve', bytes: srt }), { format: 'vtt', text: 'WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nA\n' });
  t.deepEqual(runSubtitleJob({ kind: 'serve', text: styledAssText, declared: 'ass' }), { format: 'ass', text: styledAssText });
  t.throws(() => runSubtitleJob({ kind: 'upload', bytes: Buffer.from(`1\n00:00:01,000 --> 00:00:02,000\n${'x'.repeat(70_000)}\n`) }), {
    instanceOf: SubtitleTextError,
    message: /^has a line of 70000 characters \(line 3\), more than the 65536/,
  });
});
