/**
 * SRT as people have it becomes WebVTT a browser shows (media/subtitles/srt-to-vtt.ts), and
 * subtitle bytes become text only when they are text (subtitle-text.ts).
 */
import test from 'ava';
import { normalizeVtt, srtToVtt } from '../../../media/subtitles/srt-to-vtt.js';
import { decodeSubtitle, sniffFormat, SubtitleTextError } from '../../../media/subtitles/subtitle-text.js';
import { asServed } from '../../../media/subtitles/subtitle-tracks.js';
import { formatFromName } from '../../../contracts/room/subtitles.js';

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
  t.is(normalizeVtt('\uFEFFWEBVTT\r\n'), 'WEBVTT\n');
});

test('a URL or file name names its format', (t) => {
  t.is(formatFromName('https://example.com/subs/movie.en.SRT?token=1'), 'srt');
  t.is(formatFromName('movie.ass'), 'ass');
  t.is(formatFromName('https://example.com/a.webvtt'), 'vtt');
  t.is(formatFromName('https://example.com/subtitles'), undefined);
});
