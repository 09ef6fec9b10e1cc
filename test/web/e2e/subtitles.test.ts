/**
 * Subtitles in Chromium against the whole service (docs/2026-11-26-subtitles.md): a WebVTT URL,
 * an SRT URL (converted by the server), an uploaded file and a stream inside a proxied MKV show
 * as native cues; a styled ASS is drawn by JASSUB in its own colours; the viewer's choice
 * survives a reload, a viewer who chose nothing sees the room's default, and two pages in sync
 * show the same cue. Screenshots go to test-artifacts/screenshots/subtitles-*.
 */
import test from 'ava';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { waitFor } from '../../fixtures/deadline.js';
import type { Member } from '../../gateways/bed.js';
import { countingSrt, countingVtt, makeSubtitledMkv, styledAss } from '../../media/subtitles/fixtures.js';
import { accessibilityProblems, evaluateQuietly, screenshot, signInPage, startWebBed, waitForPage, type Person, type WebBed } from './browser.js';
import { makeTestVideo, serveMedia, type MediaServer } from './media.js';

const run = promisify(execFile);
const SETTLE_MS = 15_000;

let bed: WebBed;
let media: MediaServer;
test.before(async () => {
  const video = await makeTestVideo();
  await writeFile(join(video.dir, 'movie.vtt'), countingVtt('Web'));
  await writeFile(join(video.dir, 'movie.srt'), countingSrt('Remote'));
  await makeSubtitledMkv(20, video.dir);
  // A plain grey picture with no magenta in it, unlike the test picture's bars.
  await run('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'color=c=0x404040:size=640x360:rate=15:duration=60', '-c:v', 'libvpx', '-b:v', '50k', '-deadline', 'realtime', '-cpu-used', '8', join(video.dir, 'plain.webm')]);
  media = await serveMedia(video.dir);
  bed = await startWebBed('web_subtitles', { autoplay: true, env: { SVC_MEDIA_PROXY_ALLOWED_NETWORKS: '127.0.0.0/8' } });
});
test.after.always(async () => {
  await Promise.allSettled([bed?.close(), media?.close()]);
});

async function uploadFile(roomId: string, owner: Member, name: string, text: string): Promise<string> {
  const answer = await bed.call<{ file: { id: string } }>('POST', `/api/rooms/${roomId}/subtitle-files`, { name, content: Buffer.from(text).toString('base64') }, owner.token);
  if (answer.status !== 201) throw new Error(`upload: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body.file.id;
}

/** A room of `owner` with `others` joined and one item current (paused at 0). */
async function roomWith(owner: Member, others: Member[], item: Record<string, unknown> | ((roomId: string) => Promise<Record<string, unknown>>)): Promise<string> {
  const created = await bed.call<{ room: { id: string } }>('POST', '/api/rooms', { name: 'Subtitled' }, owner.token);
  const roomId = created.body.room.id;
  for (const member of others) await bed.call('POST', `/api/rooms/${roomId}/join`, {}, member.token);
  const fields = typeof item === 'function' ? await item(roomId) : item;
  const added = await bed.call<{ item: { id: string } }>('POST', `/api/rooms/${roomId}/playlist`, { title: 'Test clock', url: media.url('clock.webm'), ...fields }, owner.token);
  if (added.status !== 201) throw new Error(`add: ${added.status} ${JSON.stringify(added.body)}`);
  await bed.call('PUT', `/api/rooms/${roomId}/playlist/current`, { mediaId: added.body.item.id }, owner.token);
  return roomId;
}

async function openRoom(member: Member, roomId: string, person?: Person): Promise<Person> {
  const opened = person ?? (await bed.person({ allowHosts: [media.host] }));
  await signInPage(opened.page, member.username);
  await opened.page.goto(`/rooms/${roomId}`);
  await opened.page.getByRole('button', { name: 'Fullscreen' }).waitFor({ timeout: SETTLE_MS });
  return opened;
}

/** The text of the cue showing now on the page's native track, or null. */
const CUE = `(() => { const v = document.querySelector('video'); const t = v && [...v.textTracks].find((t) => t.mode === 'showing'); const c = t && t.activeCues && t.activeCues[0]; return c ? c.getCueAsHTML().textContent : null; })()`;

async function cueOf(page: Page): Promise<string | null> {
  return (await evaluateQuietly(page, CUE)) as string | null;
}

async function waitForCue(page: Page, text: string): Promise<void> {
  try {
    await waitForPage(page, `${CUE} === ${JSON.stringify(text)}`, SETTLE_MS);
  } catch (error) {
    throw new Error(`cue "${text}" not shown; showing ${JSON.stringify(await cueOf(page))}: ${await page.innerText('.player').catch(() => '?')}`, { cause: error });
  }
}

async function chooseTrack(page: Page, name: RegExp): Promise<void> {
  await page.locator('summary[aria-label="Subtitles"]').click();
  await page.getByRole('radio', { name }).check();
  await page.locator('summary[aria-label="Subtitles"]').click();
}

async function roomCommand(roomId: string, owner: Member, action: 'play' | 'pause' | 'seek', body: Record<string, unknown> = {}): Promise<void> {
  const answer = await bed.call('POST', `/api/rooms/${roomId}/playback/${action}`, body, owner.token);
  if (answer.status !== 200) throw new Error(`${action}: ${answer.status} ${JSON.stringify(answer.body)}`);
}

/**
 * Pure-ish magenta pixels (the styled ASS line's colour) in each row of a screenshot of the
 * player's frame, decoded with ffmpeg (row 0 at the frame's top, one row per CSS pixel).
 */
async function magentaRows(page: Page, name: string): Promise<number[]> {
  const dir = await mkdtemp(join(tmpdir(), 'svc-shot-'));
  const path = join(dir, `${name}.png`);
  await page.locator('.player-frame').screenshot({ path, scale: 'css' });
  const width = (await readFile(path)).readUInt32BE(16); // the PNG's IHDR
  const { stdout } = await run('ffmpeg', ['-v', 'error', '-i', path, '-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1'], { encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 });
  const rows = new Array<number>(Math.floor(stdout.length / (width * 3))).fill(0);
  for (let i = 0; i + 2 < stdout.length; i += 3) if (stdout[i]! > 200 && stdout[i + 1]! < 70 && stdout[i + 2]! > 200) rows[Math.floor(i / (width * 3))]! += 1;
  return rows;
}

async function magentaPixels(page: Page, name: string): Promise<number> {
  return (await magentaRows(page, name)).reduce((sum, count) => sum + count, 0);
}

test.serial('WebVTT, converted SRT and an uploaded file show as cues; the choice and size survive a reload; a second page sees the room default', async (t) => {
  const [alice, bob] = await Promise.all([bed.signUp('alice'), bed.signUp('bob')]);
  const roomId = await roomWith(alice, [bob], async (room) => ({
    subtitles: [
      { name: 'Web', language: 'en', url: media.url('movie.vtt'), default: true },
      { name: 'Remote', language: 'en', url: media.url('movie.srt') },
      { name: 'Uploaded', language: 'fr', fileId: await uploadFile(room, alice, 'uploaded.srt', countingSrt('Uploaded')) },
    ],
  }));
  await roomCommand(roomId, alice, 'seek', { position: 3 });
  const a = await openRoom(alice, roomId);
  await waitForCue(a.page, 'Web 1');
  // Paused, so the controls show: the cue is placed above them (a line in percent), not at its default place.
  const line = await evaluateQuietly(a.page, `(() => { const v = document.querySelector('video'); const t = [...v.textTracks].find((t) => t.mode === 'showing'); return t.activeCues[0].line; })()`);
  t.true(typeof line === 'number' && line > 10 && line < 100, `the cue's line while the controls show: ${String(line)}`);
  await screenshot(a.page, 'subtitles-vtt');

  await chooseTrack(a.page, /^Remote/);
  await waitForCue(a.page, 'Remote 1');
  await screenshot(a.page, 'subtitles-srt');
  await chooseTrack(a.page, /^Uploaded/);
  await waitForCue(a.page, 'Uploaded 1');
  const normal = Number.parseFloat((await evaluateQuietly(a.page, `getComputedStyle(document.querySelector('video')).getPropertyValue('--subtitle-font-size')`)) as string);
  await a.page.locator('summary[aria-label="Subtitles"]').click();
  await a.page.getByRole('radio', { name: '150%' }).check();
  await screenshot(a.page, 'subtitles-menu');
  await a.page.locator('summary[aria-label="Subtitles"]').click();

  await a.page.reload();
  await waitForCue(a.page, 'Uploaded 1');
  const larger = Number.parseFloat((await evaluateQuietly(a.page, `getComputedStyle(document.querySelector('video')).getPropertyValue('--subtitle-font-size')`)) as string);
  t.true(Math.abs(larger / normal - 1.5) < 0.05, `150% after the reload (${normal} px -> ${larger} px)`);
  await screenshot(a.page, 'subtitles-uploaded-large');

  // Bob chose nothing: the room's default.
  const b = await openRoom(bob, roomId);
  await waitForCue(b.page, 'Web 1');
  t.deepEqual([...a.problems, ...b.problems], []);
});

test.serial('two pages in sync show the same cue at the same time', async (t) => {
  const [alice, bob] = await Promise.all([bed.signUp('alice'), bed.signUp('bob')]);
  const roomId = await roomWith(alice, [bob], { subtitles: [{ name: 'Remote', url: media.url('movie.srt'), default: true }] });
  await roomCommand(roomId, alice, 'seek', { position: 1 });
  const a = await openRoom(alice, roomId);
  const b = await openRoom(bob, roomId);
  await Promise.all([waitForCue(a.page, 'Remote 0'), waitForCue(b.page, 'Remote 0')]);
  await roomCommand(roomId, alice, 'play');
  const POSITION = `document.querySelector('video').currentTime`;
  let compared = 0;
  const deadline = Date.now() + 30_000;
  while (compared < 5 && Date.now() < deadline) {
    const [pa, ca, pb, cb] = (await Promise.all([evaluateQuietly(a.page, POSITION), cueOf(a.page), evaluateQuietly(b.page, POSITION), cueOf(b.page)])) as [number, string | null, number, string | null];
    // Cues change every 2 s: a sample is compared when both pages are well inside the same one.
    const window = Math.floor(pa / 2);
    const inside = (p: number) => Math.floor(p / 2) === window && p % 2 > 0.3 && p % 2 < 1.7;
    if (pa > 1 && inside(pa) && inside(pb)) {
      t.is(ca, `Remote ${window}`, `page A at ${pa.toFixed(2)} s`);
      t.is(cb, ca, `page B at ${pb.toFixed(2)} s shows what A shows`);
      compared += 1;
      await a.page.waitForTimeout(700);
    } else await a.page.waitForTimeout(100);
  }
  t.is(compared, 5, 'five samples in step');
  await Promise.all([screenshot(a.page, 'subtitles-sync-a'), screenshot(b.page, 'subtitles-sync-b')]);
  await roomCommand(roomId, alice, 'pause');
});

test.serial('a styled ASS track is drawn by JASSUB in its own colour over the video', async (t) => {
  const alice = await bed.signUp('alice');
  const roomId = await roomWith(alice, [], async (room) => ({ subtitles: [{ name: 'Styled', fileId: await uploadFile(room, alice, 'styled.ass', styledAss()), default: true }] }));
  await roomCommand(roomId, alice, 'seek', { position: 5 });
  const a = await openRoom(alice, roomId);
  await waitForPage(a.page, `document.querySelector('.player-ass') !== null`, SETTLE_MS);
  await roomCommand(roomId, alice, 'play');
  await waitForPage(a.page, `document.querySelector('video').currentTime > 6`, SETTLE_MS);
  // The test picture has magenta bars of its own, and a playing video changes them frame by
  // frame: both readings are taken on one paused frame, so only the line differs. JASSUB draws in
  // a worker: read until two readings agree (it has drawn the paused frame's line).
  await roomCommand(roomId, alice, 'pause');
  await waitForPage(a.page, `document.querySelector('video').paused`, SETTLE_MS);
  let drawn = 0;
  let previous = -1;
  const deadline = Date.now() + SETTLE_MS;
  while ((drawn !== previous || drawn === 0) && Date.now() < deadline) {
    previous = drawn;
    drawn = await magentaPixels(a.page, 'ass-on');
  }
  await screenshot(a.page, 'subtitles-ass');
  await chooseTrack(a.page, /^Off/);
  await waitForPage(a.page, `document.querySelector('.player-ass') === null`, SETTLE_MS);
  const without = await magentaPixels(a.page, 'ass-off');
  t.true(drawn - without > 1500, `magenta pixels with the ASS line ${drawn}, without ${without}`);
  t.deepEqual(a.problems, []);
});

/** Reads the magenta count of the player's frame until `done` holds or SETTLE_MS passes (JASSUB draws in a worker); answers the last count. */
async function magentaWhen(page: Page, name: string, done: (count: number) => boolean): Promise<number> {
  const deadline = Date.now() + SETTLE_MS;
  let count = await magentaPixels(page, name);
  while (!done(count) && Date.now() < deadline) count = await magentaPixels(page, name);
  return count;
}

/** The page's video stands paused at `seconds` with a frame to show. */
const pausedAt = (seconds: number): string =>
  `(() => { const v = document.querySelector('video'); return v.paused && !v.seeking && v.readyState >= 2 && Math.abs(v.currentTime - ${seconds}) < 0.2; })()`;

test.serial('an ASS line shows in a room that stays paused: when the page opens, when the track is chosen, and it goes when a seek leaves it', async (t) => {
  const alice = await bed.signUp('alice');
  // The line lasts the first 10 s.
  const roomId = await roomWith(alice, [], async (room) => ({ subtitles: [{ name: 'Styled', fileId: await uploadFile(room, alice, 'styled.ass', styledAss('STYLED', 10)), default: true }] }));
  await roomCommand(roomId, alice, 'seek', { position: 20 });
  const a = await openRoom(alice, roomId);
  await waitForPage(a.page, pausedAt(20), SETTLE_MS);
  await chooseTrack(a.page, /^Off/);
  await waitForPage(a.page, `document.querySelector('.player-ass') === null`, SETTLE_MS);
  // What the paused frames show without the line, at 20 s and at 5 s.
  const offAt20 = await magentaPixels(a.page, 'paused-off-20');
  await roomCommand(roomId, alice, 'seek', { position: 5 });
  await waitForPage(a.page, pausedAt(5), SETTLE_MS);
  const offAt5 = await magentaPixels(a.page, 'paused-off-5');

  // Chosen while paused: drawn without a frame being presented.
  await chooseTrack(a.page, /^Styled/);
  await waitForPage(a.page, `document.querySelector('.player-ass') !== null`, SETTLE_MS);
  const chosen = await magentaWhen(a.page, 'paused-chosen', (count) => count - offAt5 > 1500);
  t.true(chosen - offAt5 > 1500, `chosen while paused: ${chosen} magenta pixels, ${offAt5} without the line`);
  await screenshot(a.page, 'subtitles-ass-paused');

  // A seek while paused past the line's end clears it.
  await roomCommand(roomId, alice, 'seek', { position: 20 });
  await waitForPage(a.page, pausedAt(20), SETTLE_MS);
  const cleared = await magentaWhen(a.page, 'paused-seek-20', (count) => Math.abs(count - offAt20) < 300);
  t.true(Math.abs(cleared - offAt20) < 300, `after a paused seek past the line: ${cleared} magenta pixels, ${offAt20} without it`);

  // Opening the room paused inside the line draws it.
  await roomCommand(roomId, alice, 'seek', { position: 5 });
  const b = await openRoom(alice, roomId);
  await waitForPage(b.page, pausedAt(5), SETTLE_MS);
  await waitForPage(b.page, `document.querySelector('.player-ass') !== null`, SETTLE_MS);
  const opened = await magentaWhen(b.page, 'paused-opened', (count) => count - offAt5 > 1500);
  t.true(opened - offAt5 > 1500, `opened paused inside the line: ${opened} magenta pixels, ${offAt5} without it`);
  t.deepEqual([...a.problems, ...b.problems], []);
});

/** Where the controls' top edge lies in the player's frame, in CSS pixels from the frame's top. */
const CONTROLS_TOP = `(() => document.querySelector('.player-controls').getBoundingClientRect().top - document.querySelector('.player-frame').getBoundingClientRect().top)()`;

/** The lowest row of the plain picture with magenta in it (the line's bottom edge), or -1 (no line). */
async function lineBottom(page: Page, name: string): Promise<number> {
  const rows = await magentaRows(page, name);
  for (let y = rows.length - 1; y >= 0; y--) if (rows[y]! > 4) return y;
  return -1;
}

/** Reads the line's bottom edge until `done` holds or SETTLE_MS passes (JASSUB draws in a worker); answers the last reading. */
async function lineBottomWhen(page: Page, name: string, done: (row: number) => boolean): Promise<number> {
  const deadline = Date.now() + SETTLE_MS;
  let row = await lineBottom(page, name);
  while (!done(row) && Date.now() < deadline) row = await lineBottom(page, name);
  return row;
}

test.serial('an ASS line at the bottom rises above the controls while they show, and goes back down when they hide', async (t) => {
  const alice = await bed.signUp('alice');
  // Bottom centre (numpad 2), 10 of 360 units above the picture's bottom edge: under the
  // controls where the file places it. On the plain picture, any magenta is the line.
  const roomId = await roomWith(alice, [], async (room) => ({ url: media.url('plain.webm'), subtitles: [{ name: 'Low', fileId: await uploadFile(room, alice, 'low.ass', styledAss('LOW', 60, 2)), default: true }] }));
  await roomCommand(roomId, alice, 'seek', { position: 5 });
  const a = await openRoom(alice, roomId);
  await waitForPage(a.page, pausedAt(5), SETTLE_MS);
  await waitForPage(a.page, `document.querySelector('.player-ass') !== null`, SETTLE_MS);

  // Paused, so the controls show: the line's bottom edge is just above them.
  const controlsTop = (await evaluateQuietly(a.page, CONTROLS_TOP)) as number;
  const frameHeight = (await magentaRows(a.page, 'low-frame')).length;
  t.true(controlsTop > frameHeight / 2 && controlsTop < frameHeight, `the controls' top at ${controlsTop} of ${frameHeight} px`);
  const lifted = await lineBottomWhen(a.page, 'low-paused', (row) => row >= 0 && row < controlsTop);
  await screenshot(a.page, 'subtitles-ass-over-controls');
  t.true(lifted >= 0 && lifted < controlsTop, `paused: the line's bottom edge at row ${lifted}, the controls' top at ${controlsTop}`);
  t.true(controlsTop - lifted < frameHeight * 0.1, `paused: the line ${controlsTop - lifted} px above the controls, no further than its own margin`);

  // Playing with the pointer away, the controls hide and the line goes back where the file puts it.
  await a.page.mouse.move(0, 0);
  await evaluateQuietly(a.page, '(document.activeElement instanceof HTMLElement) && document.activeElement.blur()');
  await roomCommand(roomId, alice, 'play');
  await waitForPage(a.page, `document.querySelector('.player-controls.is-hidden') !== null`, SETTLE_MS);
  const dropped = await lineBottomWhen(a.page, 'low-playing', (row) => row > controlsTop);
  await screenshot(a.page, 'subtitles-ass-controls-hidden');
  t.true(dropped > controlsTop && dropped < frameHeight, `playing, controls hidden: the line's bottom edge at row ${dropped}, below the controls' top ${controlsTop}`);

  // Paused again: lifted again.
  await roomCommand(roomId, alice, 'pause');
  const again = await lineBottomWhen(a.page, 'low-paused-again', (row) => row >= 0 && row < controlsTop);
  t.true(again >= 0 && again < controlsTop, `paused again: the line's bottom edge at row ${again}, the controls' top at ${controlsTop}`);
  t.deepEqual(a.problems, []);
});

test.serial('a text stream inside a proxied MKV is listed and shown', async (t) => {
  const alice = await bed.signUp('alice');
  const roomId = await roomWith(alice, [], { url: media.url('inside.mkv'), proxy: true });
  await roomCommand(roomId, alice, 'seek', { position: 3 });
  const a = await openRoom(alice, roomId);
  await chooseTrack(a.page, /^eng \(embedded\)/);
  await waitForCue(a.page, 'Inside 1');
  await screenshot(a.page, 'subtitles-embedded');
  await chooseTrack(a.page, /^Styled/);
  await waitForPage(a.page, `document.querySelector('.player-ass') !== null`, SETTLE_MS);
  t.is(await cueOf(a.page), null, 'the ASS stream is drawn by JASSUB, not as a native cue');
  t.deepEqual(a.problems, []);
});

test.serial('a file uploaded from the add-media form becomes the room default track; the form and menu pass axe', async (t) => {
  const alice = await bed.signUp('alice');
  const created = await bed.call<{ room: { id: string } }>('POST', '/api/rooms', { name: 'Form' }, alice.token);
  const roomId = created.body.room.id;
  const a = await openRoom(alice, roomId);
  await a.page.getByRole('tab', { name: 'Playlist' }).click();
  await a.page.getByLabel('Media URL').fill(media.url('clock.webm'));
  await a.page.getByLabel('Title', { exact: true }).fill('Clock');
  await a.page.getByRole('button', { name: 'Upload subtitles' }).click();
  await a.page.getByLabel('Subtitle 1 file').setInputFiles({ name: 'mine.srt', mimeType: 'application/x-subrip', buffer: Buffer.from(countingSrt('Mine')) });
  await a.page.getByText('Uploaded: mine.srt').waitFor({ timeout: SETTLE_MS });
  await a.page.getByLabel('Subtitle 1 label').fill('Mine');
  await a.page.getByLabel('Room default').check();
  await screenshot(a.page, 'subtitles-add-form');
  t.deepEqual(await accessibilityProblems(a.page), []);
  await a.page.getByRole('button', { name: 'Add to playlist' }).click();

  const playlist = await waitFor('the item in the playlist', async () => {
    const answer = await bed.call<{ items: Array<{ id: string; subtitles: unknown[] }> }>('GET', `/api/rooms/${roomId}/playlist`, undefined, alice.token);
    return answer.body.items[0];
  }, SETTLE_MS);
  t.like(playlist.subtitles[0], { name: 'Mine', default: true });
  await bed.call('PUT', `/api/rooms/${roomId}/playlist/current`, { mediaId: playlist.id }, alice.token);
  await roomCommand(roomId, alice, 'seek', { position: 3 });
  await waitForCue(a.page, 'Mine 1');
  await a.page.locator('summary[aria-label="Subtitles"]').click();
  t.deepEqual(await accessibilityProblems(a.page), []);
  t.deepEqual(a.problems, []);
});
