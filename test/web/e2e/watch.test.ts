/**
 * `svc watch` (cli/commands/watch.ts) with Debian's mpv beside a Chromium page in one room:
 * mpv plays the room's item in step with the page, mpv's own keys (sent as keypresses through
 * mpv's IPC, as a person's keys are handled) move the room for everyone, and a guest, who may
 * not steer playback, has their key refused while the room stays where it was and their mpv is
 * put back in step. mpv draws nothing and plays no sound here: `vo=null`, `ao=null` from an mpv
 * config folder (MPV_HOME), which is also how a person's own mpv.conf reaches the mpv it starts.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import type { Page } from 'playwright-core';
import { MpvIpc } from '../../../cli/watch/mpv-ipc.js';
import { BED_PASSWORD, type Member } from '../../gateways/bed.js';
import { runSvc, SvcProcess } from '../../harness/svc-process.js';
import { openRoomPage, startWebBed, waitForPage, type WebBed } from './browser.js';
import { positionAt as pagePositionAt, TOLERANCE_S } from './in-sync.js';
import { makeTestVideo, serveMedia, type MediaServer } from './media.js';

const MPV = process.env.SVCTEST_MPV ?? '/usr/bin/mpv';
const DEADLINE_MS = 15_000;

let bed: WebBed;
let media: MediaServer;
let owner: Member;
let roomId: string;
let page: Page;
let dir: string;
const stops: Array<() => Promise<unknown>> = [];

test.before(async () => {
  const video = await makeTestVideo({ seconds: 90, size: '320x180' });
  media = await serveMedia(video.dir);
  bed = await startWebBed('svc_watch', { autoplay: true });
  dir = await mkdtemp(join(tmpdir(), 'svc-watch-test-'));
  await writeFile(join(dir, 'mpv.conf'), 'vo=null\nao=null\n');
  owner = await bed.signUp('owner');
  roomId = (await bed.call<{ room: { id: string } }>('POST', '/api/rooms', { name: 'Desktop night' }, owner.token)).body.room.id;
  const item = await bed.call<{ item: { id: string } }>('POST', `/api/rooms/${roomId}/playlist`, { title: 'Test clock', url: media.url(video.file) }, owner.token);
  await bed.call('PUT', `/api/rooms/${roomId}/playlist/current`, { mediaId: item.body.item.id }, owner.token);
  page = (await openRoomPage(bed, owner, roomId, { allowHosts: [media.host], until: { role: 'button', name: 'Fullscreen' } })).page;
});

test.after.always(async () => {
  for (const stop of stops.reverse()) await stop().catch(() => undefined);
  await Promise.allSettled([bed?.close(), media?.close()]);
  if (dir) await rm(dir, { recursive: true, force: true });
});

const link = (): string => `${bed.origin}/rooms/${roomId}`;

/** `svc watch` as a child process (the program people run), stopped after the file. */
function watch(args: string[], env: Record<string, string> = {}): SvcProcess {
  const child = new SvcProcess(['watch', link(), ...args], { MPV_HOME: dir, ...env });
  stops.push(() => child.stop());
  return child;
}

async function roomPlayback(): Promise<{ playing: boolean; position: number; updatedAt: number; rate: number }> {
  const answer = await bed.call<{ playback: { playing: boolean; position: number; updatedAt: number; rate: number } }>('GET', `/api/rooms/${roomId}`, undefined, owner.token);
  return answer.body.playback;
}

async function until(what: string, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + DEADLINE_MS;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** mpv's position at wall-clock `at` (ms since the epoch), from one reading of time-pos, and whether it is paused. */
async function mpvPositionAt(ipc: MpvIpc, at: number): Promise<{ position: number; paused: boolean }> {
  const [time, paused, speed] = (await Promise.all([ipc.command(['get_property', 'time-pos']), ipc.command(['get_property', 'pause']), ipc.command(['get_property', 'speed'])])) as [number, boolean, number];
  const now = Date.now();
  return { position: paused ? time : time + ((at - now) / 1000) * speed, paused };
}

/**
 * Waits until mpv and the page show the same moment (within the browser tests' tolerance),
 * past `minimum` s, both playing or both paused (a paused mpv waiting ahead for its scheduled
 * start is not in step yet, however near the page passes it).
 */
async function inStep(ipc: MpvIpc, minimum: number): Promise<void> {
  await until(`mpv is in step with the page past ${minimum} s`, async () => {
    const at = Date.now();
    const [pagePaused, a, b] = await Promise.all([
      page.evaluate<boolean>(`document.querySelector('video').paused`),
      pagePositionAt(page, at),
      mpvPositionAt(ipc, at).catch(() => null),
    ]);
    return b !== null && b.paused === pagePaused && Math.abs(a - b.position) <= TOLERANCE_S && Math.min(a, b.position) >= minimum;
  });
}

test.serial("mpv plays in step with the page, and mpv's keys move the room for everyone", async (t) => {
  const viewer = await bed.signUp('viewer');
  const svc = watch(['--username', viewer.username, '--mpv', MPV, '--chat'], { SVC_WATCH_PASSWORD: BED_PASSWORD });
  const ready = await svc.waitForLine(/IPC socket (.+)\); stop with/, DEADLINE_MS);
  const ipc = await MpvIpc.connect(/IPC socket (.+)\); stop with/.exec(ready)![1]!);
  stops.push(() => Promise.resolve(ipc.close()));

  await page.getByRole('button', { name: 'Play', exact: true }).click();
  await inStep(ipc, 1);
  t.pass('in step after play from the page');

  // Space in mpv pauses the room: the page pauses too.
  await ipc.command(['keypress', 'space']);
  await until('the room is paused', async () => !(await roomPlayback()).playing);
  await waitForPage(page, `document.querySelector('video').paused`);
  const pausedAt = (await roomPlayback()).position;

  // A seek key (Right: 5 s on) moves the room.
  await ipc.command(['keypress', 'RIGHT']);
  await until('the room moved on by the seek', async () => (await roomPlayback()).position >= pausedAt + 4);
  await inStep(ipc, pausedAt + 4);

  // Space again plays the room, and both stay in step.
  await ipc.command(['keypress', 'space']);
  await until('the room plays', async () => (await roomPlayback()).playing);
  await inStep(ipc, pausedAt + 5);
  await svc.waitForLine(/you: seek to/, DEADLINE_MS);
  t.pass('the keys moved the room');
});

test.serial('a guest without control_playback has their keys refused: the room stays, their mpv is put back in step', async (t) => {
  const socket = join(dir, 'guest-mpv.sock');
  const mpv: ChildProcess = spawn(MPV, ['--idle=yes', '--keep-open=yes', '--no-terminal', '--vo=null', '--ao=null', `--input-ipc-server=${socket}`], { stdio: 'ignore' });
  stops.push(async () => {
    mpv.kill('SIGKILL');
    await new Promise((resolve) => mpv.once('exit', resolve));
  });
  const ipc = await MpvIpc.connect(socket);
  stops.push(() => Promise.resolve(ipc.close()));
  const svc = watch(['--guest', 'Sam', '--ipc', socket]);
  await svc.waitForLine(/watching "Desktop night" as Sam/, DEADLINE_MS);
  t.true((await roomPlayback()).playing);
  await inStep(ipc, 0);

  const before = await roomPlayback();
  await ipc.command(['keypress', 'space']);
  await svc.waitForLine(/may not pause in this room/, DEADLINE_MS);
  await inStep(ipc, 0);
  await ipc.command(['keypress', 'RIGHT']);
  await svc.waitForLine(/may not seek in this room/, DEADLINE_MS);
  await inStep(ipc, 0);
  const after = await roomPlayback();
  t.true(after.playing, 'the room still plays');
  t.is(after.updatedAt, before.updatedAt, 'the room did not move');
});

test.serial('what stops svc watch is said in a sentence: a bad link, a wrong password, a room password, no mpv', async (t) => {
  // Signed in rather than as guests: new guest sessions are limited per address, and every svc here comes from 127.0.0.1.
  const stranger = await bed.signUp('stranger');
  const signedIn = { SVC_WATCH_PASSWORD: BED_PASSWORD };
  const locked = (await bed.call<{ room: { id: string } }>('POST', '/api/rooms', { name: 'Locked', password: 'popcorn' }, owner.token)).body.room.id;
  const lockedLink = `${bed.origin}/rooms/${locked}`;
  // Independent of one another: run together.
  const [bad, wrong, noPassword, wrongRoomPassword, noMpv] = await Promise.all([
    runSvc(['watch', `${bed.origin}/room/${roomId}`, '--guest', 'Sam'], {}),
    runSvc(['watch', link(), '--username', owner.username], { SVC_WATCH_PASSWORD: 'not the password at all' }),
    runSvc(['watch', lockedLink, '--username', stranger.username], signedIn),
    runSvc(['watch', lockedLink, '--username', stranger.username, '--room-password', 'crisps'], signedIn),
    runSvc(['watch', link(), '--username', stranger.username, '--mpv', join(dir, 'no-such-mpv')], signedIn),
  ]);
  t.deepEqual([bad.code, wrong.code, noPassword.code, wrongRoomPassword.code, noMpv.code], [1, 1, 1, 1, 1]);
  t.regex(bad.stderr, /is not a room link \(its path is not \/rooms\/<room id>\)/);
  t.regex(wrong.stderr, /wrong username or password/);
  t.regex(noPassword.stderr, /the room "Locked" has a password: give it with --room-password/);
  t.regex(wrongRoomPassword.stderr, /joining "Locked": /);
  t.regex(noMpv.stderr, /mpv was not found at .*no-such-mpv: install it/);
});
