/**
 * Subtitle conversion runs in linear time and off the event loop (issue 38, finding 3): a file
 * over a limit (line length, cue count, size) is refused naming the limit (an upload with
 * `invalid_argument` on `content`, a URL track with `bad_gateway`), and the largest crafted
 * file the limits allow (lines of `{\`, which the old override regex took quadratic time over)
 * converts within the worker's deadline while the gateway's event loop stays free.
 */
import test from 'ava';
import { writeFile } from 'node:fs/promises';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { withDeadline } from '../../fixtures/deadline.js';
import { startNginx, type Nginx } from '../../fixtures/nginx.js';
import type { GatewayBed, Member } from '../../gateways/bed.js';
import { addItem, createRoom, startMediaBed } from '../media-bed.js';

let bed: GatewayBed;
let owner: Member;
let upstream: Nginx;

/** The limits as the issue sets them (contracts/room/subtitles.ts SUBTITLE_LIMITS). */
const LINE_MAX = 65_536;
const CUES_MAX = 50_000;

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
const stamp = (n: number) => `${String(Math.floor(n / 3600)).padStart(2, '0')}:${String(Math.floor(n / 60) % 60).padStart(2, '0')}:${String(n % 60).padStart(2, '0')},000`;
/** `count` one-second cues, the n-th saying `text(n)`. */
const srt = (count: number, text: (n: number) => string) => Array.from({ length: count }, (_, n) => `${n + 1}\n${stamp(n % 86_400)} --> ${stamp((n % 86_400) + 1)}\n${text(n)}\n`).join('\n');
/** `{\` over and over: each one opened an override the old regex scanned to the end of the line for. */
const overrides = (chars: number) => '{\\'.repeat(chars / 2);

const longLine = srt(1, () => overrides(2 * 1024 * 1024 - 64));
const manyCues = srt(CUES_MAX + 1, () => 'a');
/** 30 lines just under the line limit: about 1.9 MiB, within the size limit. */
const largestAllowed = srt(30, () => overrides(LINE_MAX - 2));

test.before(async () => {
  const dir = await mkdtemp(join(tmpdir(), 'svc-subtitle-limits-'));
  await writeFile(join(dir, 'long-line.srt'), srt(1, () => overrides(LINE_MAX + 2)));
  await writeFile(join(dir, 'many-cues.srt'), manyCues);
  upstream = await startNginx({ root: dir });
  bed = await startMediaBed('subtitle-limits');
  owner = await bed.signUp('owner');
});
test.after.always(async () => {
  await bed?.close();
  await upstream?.stop();
});

interface ErrorBody {
  code: string;
  message: string;
}

const upload = (roomId: string, name: string, text: string) =>
  bed.call<{ file: { id: string } } & ErrorBody>('POST', `/api/rooms/${roomId}/subtitle-files`, { name, content: b64(text) }, owner.token);

test('an upload with a line over the limit, or more cues than the limit, is refused naming content and the limit', async (t) => {
  const roomId = await createRoom(bed, owner);
  t.true(Buffer.byteLength(longLine) <= 2 * 1024 * 1024, 'within the size limit');
  const long = await withDeadline(upload(roomId, 'long.srt', longLine), 20_000, 'the long line upload');
  t.is(long.status, 400, JSON.stringify(long.body).slice(0, 300));
  t.is(long.body.code, 'invalid_argument');
  t.regex(long.body.message, new RegExp(`^content: has a line of ${2 * 1024 * 1024 - 64} characters \\(line 3\\), more than the ${LINE_MAX} a subtitle line may have`));

  const cues = await upload(roomId, 'cues.srt', manyCues);
  t.is(cues.status, 400, JSON.stringify(cues.body).slice(0, 300));
  t.regex(cues.body.message, new RegExp(`^content: has more than ${CUES_MAX} cues, the most a subtitle file may have`));

  const vtt = await upload(roomId, 'long.vtt', `WEBVTT\n\n00:01.000 --> 00:02.000\n${'x'.repeat(LINE_MAX + 1)}\n`);
  t.is(vtt.status, 400);
  t.regex(vtt.body.message, new RegExp(`^content: has a line of ${LINE_MAX + 1} characters \\(line 4\\), more than the ${LINE_MAX}`));
  // As short as an event gets (empty text), so that one more than the cap fits in 2 MiB.
  const dialogue = (n: number) => `Dialogue: 0,0:00:${String(n % 60).padStart(2, '0')}.00,0:00:59.00,,,,,,,`;
  const ass = await upload(roomId, 'many.ass', `[Script Info]\nScriptType: v4.00+\n\n[Events]\nFormat: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\n${Array.from({ length: CUES_MAX + 1 }, (_, n) => dialogue(n)).join('\n')}\n`);
  t.is(ass.status, 400);
  t.regex(ass.body.message, new RegExp(`^content: has more than ${CUES_MAX} events, the most a subtitle file may have`));
});

test('a URL track over a limit is a bad gateway that says which limit', async (t) => {
  const roomId = await createRoom(bed, owner);
  const mediaId = await addItem(bed, roomId, owner, {
    url: `${upstream.url}/movie.mkv`,
    subtitles: [
      { name: 'Long', url: `${upstream.url}/long-line.srt` },
      { name: 'Many', url: `${upstream.url}/many-cues.srt` },
    ],
  });
  const long = await withDeadline(bed.call<ErrorBody>('GET', `/api/rooms/${roomId}/playlist/${mediaId}/subtitles/0`, undefined, owner.token), 20_000, 'the long line track');
  t.is(long.status, 502, JSON.stringify(long.body).slice(0, 300));
  t.regex(long.body.message, new RegExp(`^the subtitle file at the URL has a line of ${LINE_MAX + 2} characters \\(line 3\\), more than the ${LINE_MAX} a subtitle line may have`));
  const many = await bed.call<ErrorBody>('GET', `/api/rooms/${roomId}/playlist/${mediaId}/subtitles/1`, undefined, owner.token);
  t.is(many.status, 502);
  t.regex(many.body.message, new RegExp(`^the subtitle file at the URL has more than ${CUES_MAX} cues`));
});

test('the largest crafted file the limits allow converts within the deadline while the event loop stays free', async (t) => {
  const roomId = await createRoom(bed, owner);
  t.true(Buffer.byteLength(largestAllowed) <= 2 * 1024 * 1024, 'within the size limit');
  const stored = await upload(roomId, 'crafted.srt', largestAllowed);
  t.is(stored.status, 201, JSON.stringify(stored.body).slice(0, 300));
  const mediaId = await addItem(bed, roomId, owner, { url: `${upstream.url}/movie.mkv`, subtitles: [{ name: 'Crafted', fileId: stored.body.file.id }] });

  // The service runs in this process: a conversion on its event loop would stall this histogram.
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const converted = bed.call<{ format: string; text: string }>('GET', `/api/rooms/${roomId}/playlist/${mediaId}/subtitles/0`, undefined, owner.token);
  const meanwhile = await withDeadline(bed.call('GET', `/api/rooms/${roomId}`, undefined, owner.token), 10_000, 'another request while the file converts');
  const answer = await withDeadline(converted, 20_000, 'the conversion');
  delay.disable();
  t.is(meanwhile.status, 200);
  t.is(answer.status, 200);
  t.is(answer.body.format, 'vtt');
  // No override is ever closed, so none is dropped: 30 cues, each the line as it was.
  const cues = answer.body.text.split('\n\n').slice(1);
  t.is(cues.length, 30);
  t.true(cues.every((cue) => cue.split('\n')[1] === overrides(LINE_MAX - 2)));
  const worstMs = delay.max / 1e6;
  t.true(worstMs < 1000, `the event loop stalled for ${worstMs.toFixed(0)} ms`);
});
