/**
 * Media that cannot seek, and media the server refuses, in Chromium against the whole service.
 * `python3 -m http.server` serves the test video without Range support (every read from the
 * start), as in the issue: the add-media form says the source can't seek once the server's
 * probe answered, the player says it too, a seek from the seek bar is refused with the room's
 * reason, and pause keeps both players where the media is (they once snapped to 0:00 while
 * the room said 60 s). A proxied item at an address the operator did not allow (::1; only
 * 127.0.0.0/8 is allowed here) shows the proxy's reason and the setting in the player.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import test from 'ava';
import type { Page } from 'playwright-core';
import { freePort } from '../../harness/stack.js';
import { waitFor } from '../../fixtures/deadline.js';
import { signInPage, startWebBed, waitForPage, type WebBed } from './browser.js';
import { seekFromControls } from './in-sync.js';
import { makeTestVideo } from './media.js';

let bed: WebBed;
let python: ChildProcess;
let pythonHost: string;
let pythonPort: number;

test.before(async () => {
  const video = await makeTestVideo({ seconds: 60 });
  pythonPort = await freePort();
  pythonHost = `127.0.0.1:${pythonPort}`;
  // Both loopbacks: 127.0.0.1 is an address the server may fetch (its seek probe answers), ::1 one it may not.
  python = spawn('python3', ['-m', 'http.server', String(pythonPort), '--bind', '::', '--directory', video.dir], { stdio: 'ignore' });
  await waitFor('python3 -m http.server', async () => ((await fetch(`http://${pythonHost}/clock.webm`, { method: 'HEAD' }).catch(() => null))?.ok ? true : undefined), 15_000);
  bed = await startWebBed('web_seekable', { autoplay: true, env: { SVC_MEDIA_PROXY_ALLOWED_NETWORKS: '127.0.0.0/8' } });
});
test.after.always(async () => {
  python?.kill();
  await bed?.close();
});

const currentTime = (page: Page): Promise<number> => page.evaluate<number>(`document.querySelector('video').currentTime`);

test.serial('a source without Range support: the form and the player say it cannot seek, a seek is refused, pause keeps both players where they are', async (t) => {
  const [owner, friend, late] = await Promise.all([bed.signUp('seek-owner'), bed.signUp('seek-friend'), bed.signUp('seek-late')]);
  const created = await bed.call<{ room: { id: string } }>('POST', '/api/rooms', { name: 'No ranges' }, owner.token);
  const roomId = created.body.room.id;
  for (const member of [friend, late]) await bed.call('POST', `/api/rooms/${roomId}/join`, {}, member.token);

  const a = await bed.person({ allowHosts: [pythonHost] });
  await signInPage(a.page, owner.username);
  await a.page.goto(`/rooms/${roomId}`);
  await a.page.getByLabel('Media URL').fill(`http://${pythonHost}/clock.webm`);
  await a.page.getByLabel('Title', { exact: true }).fill('Python clock');
  await a.page.getByRole('button', { name: 'Add to playlist' }).click();
  await a.page.getByText("This source can't seek: everyone will watch it from the start, without jumping.").first().waitFor({ timeout: 15_000 });

  const playlist = await bed.call<{ items: Array<{ id: string; seekable: string }> }>('GET', `/api/rooms/${roomId}/playlist`, undefined, owner.token);
  const [item] = playlist.body.items;
  t.is(item?.seekable, 'no');
  await bed.call('PUT', `/api/rooms/${roomId}/playlist/current`, { mediaId: item!.id }, owner.token);

  const b = await bed.person({ allowHosts: [pythonHost] });
  await signInPage(b.page, friend.username);
  await b.page.goto(`/rooms/${roomId}`);
  for (const page of [a.page, b.page]) await page.locator('.player .seekable-note').waitFor({ timeout: 15_000 });

  await a.page.getByRole('button', { name: 'Play', exact: true }).click();
  for (const page of [a.page, b.page]) await waitForPage(page, `document.querySelector('video').currentTime > 3`, 20_000);

  // A seek to 0:40 from the seek bar: refused with the room's reason, nobody jumps.
  await seekFromControls(a.page, 40);
  await a.page.getByRole('alert').filter({ hasText: /"Python clock" cannot seek: its server does not answer range requests/ }).waitFor({ timeout: 10_000 });
  const [afterSeekA, afterSeekB] = [await currentTime(a.page), await currentTime(b.page)];
  t.true(afterSeekA > 3 && afterSeekA < 20, `a played on from where it was (${afterSeekA})`);
  t.true(afterSeekB > 3 && afterSeekB < 20, `b played on from where it was (${afterSeekB})`);

  // Someone who arrives while it plays cannot be put where the room is: they watch from the
  // start, playing, rather than held paused for a jump that never lands.
  const c = await bed.person({ allowHosts: [pythonHost] });
  await signInPage(c.page, late.username);
  await c.page.goto(`/rooms/${roomId}`);
  await waitForPage(c.page, `(() => { const v = document.querySelector('video'); return !!v && !v.paused && v.currentTime > 1; })()`, 20_000);

  // Pause: both stop where the media is, together, not back at 0:00.
  await a.page.getByRole('button', { name: 'Pause', exact: true }).click();
  for (const page of [a.page, b.page]) await waitForPage(page, `document.querySelector('video').paused`, 10_000);
  const [pausedA, pausedB] = [await currentTime(a.page), await currentTime(b.page)];
  t.true(pausedA >= afterSeekA && pausedB >= afterSeekB, `paused at ${pausedA} / ${pausedB}, not back at the start`);
  t.true(Math.abs(pausedA - pausedB) < 1, `the two players paused together (${pausedA} / ${pausedB})`);
  // And stay there: a second later neither has snapped to 0:00.
  await a.page.waitForTimeout(1000);
  t.true((await currentTime(a.page)) >= pausedA - 0.1 && (await currentTime(b.page)) >= pausedB - 0.1, 'still where they paused');
  t.deepEqual([...a.problems, ...b.problems, ...c.problems], []);
});

test.serial('a proxied item at an address the server refuses shows the proxy\'s reason and the setting in the player', async (t) => {
  const owner = await bed.signUp('refused-owner');
  const created = await bed.call<{ room: { id: string } }>('POST', '/api/rooms', { name: 'Refused' }, owner.token);
  const roomId = created.body.room.id;
  const added = await bed.call<{ item: { id: string } }>(
    'POST',
    `/api/rooms/${roomId}/playlist`,
    { title: 'Loopback clock', url: `http://[::1]:${pythonPort}/clock.webm`, proxy: true },
    owner.token,
  );
  await bed.call('PUT', `/api/rooms/${roomId}/playlist/current`, { mediaId: added.body.item.id }, owner.token);
  const a = await bed.person();
  await signInPage(a.page, owner.username);
  await a.page.goto(`/rooms/${roomId}`);
  const alert = a.page.getByRole('alert').filter({ hasText: 'The server refused to fetch this address' });
  await alert.waitFor({ timeout: 15_000 });
  const text = await alert.innerText();
  t.regex(text, /does not connect to ::1: it is a loopback address/);
  t.regex(text, /media_proxy\.allowed_networks/);
  t.regex(text, /Ask an admin or use another link\./);
  t.deepEqual(a.problems, []);
});

test.serial('a source without Range support at an address the server does not fetch: the player says it cannot seek, from what the browser reports', async (t) => {
  const owner = await bed.signUp('unprobed-owner');
  const created = await bed.call<{ room: { id: string } }>('POST', '/api/rooms', { name: 'Unprobed' }, owner.token);
  const roomId = created.body.room.id;
  const added = await bed.call<{ item: { id: string } }>('POST', `/api/rooms/${roomId}/playlist`, { title: 'LAN clock', url: `http://[::1]:${pythonPort}/clock.webm` }, owner.token);
  const mediaId = added.body.item.id;
  const probed = await waitFor(
    "the server's seek check",
    async () => {
      const items = (await bed.call<{ items: Array<{ id: string; seekable: string }> }>('GET', `/api/rooms/${roomId}/playlist`, undefined, owner.token)).body.items;
      const seekable = items.find((item) => item.id === mediaId)?.seekable;
      return seekable && seekable !== 'checking' ? seekable : undefined;
    },
    15_000,
  );
  t.is(probed, 'unknown', 'the server could not check it');
  await bed.call('PUT', `/api/rooms/${roomId}/playlist/current`, { mediaId }, owner.token);
  const a = await bed.person({ allowHosts: [`[::1]:${pythonPort}`] });
  await signInPage(a.page, owner.username);
  await a.page.goto(`/rooms/${roomId}`);
  const note = a.page.locator('.player .seekable-note');
  await note.waitFor({ timeout: 15_000 });
  t.is(await note.innerText(), "This source can't seek: everyone will watch it from the start, without jumping.");
  t.deepEqual(a.problems, []);
});
