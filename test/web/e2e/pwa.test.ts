/**
 * The installable app (docs/2026-11-29-installable-app.md): the manifest and icons as installers
 * read them, the service worker controlling the page, the shell opening offline with the offline words (and nothing of the API or media in its caches),
 * the new-version notice whose Reload lets the new worker take over, and "Share → svc" landing
 * in a room's add-media form. Chromium's installability verdict and Lighthouse's audits need
 * a browser profile that is not incognito: lighthouse.test.ts.
 */
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import test from 'ava';
import type { Page } from 'playwright-core';
import { accessibilityProblems, controlledByWorker, startWebBed, waitForPage, type WebBed } from './browser.js';
import { BED_PASSWORD } from '../../gateways/bed.js';
import { WEB_CLIENT_ROOT } from '../../../gateways/http/web-client.js';

let bed: WebBed;
/** This file's own copy of the built client: the update test changes its sw.js, which no other test file may see. */
let webClientRoot: string;
test.before(async () => {
  webClientRoot = await mkdtemp(join(tmpdir(), 'svc-web-pwa-'));
  await cp(WEB_CLIENT_ROOT, webClientRoot, { recursive: true });
  bed = await startWebBed('web_pwa', { webClientRoot });
});
test.after.always(async () => {
  await bed?.close();
  if (webClientRoot) await rm(webClientRoot, { recursive: true, force: true });
});

interface Manifest {
  name: string;
  short_name: string;
  start_url: string;
  scope: string;
  display: string;
  theme_color: string;
  background_color: string;
  icons: Array<{ src: string; sizes: string; type: string; purpose: string }>;
  share_target: { action: string; method: string; enctype: string; params: Record<string, string> };
}

const CONTROLLED = 'navigator.serviceWorker.controller !== null';
const CACHED_URLS = `caches.keys().then((names) => Promise.all(names.map((name) => caches.open(name).then((cache) => cache.keys()))))
  .then((lists) => lists.flat().map((request) => request.url))`;

/** A PNG's width and height, from its IHDR chunk. */
function pngSize(bytes: Uint8Array): string {
  const view = new DataView(bytes.buffer, bytes.byteOffset);
  return `${view.getUint32(16)}x${view.getUint32(20)}`;
}

test('the manifest, its icons and the worker are served as installers and browsers need them', async (t) => {
  const response = await fetch(`${bed.origin}/manifest.webmanifest`);
  t.is(response.status, 200);
  t.is(response.headers.get('content-type'), 'application/manifest+json');
  const manifest = (await response.json()) as Manifest;
  t.like(manifest, { name: 'svc', short_name: 'svc', start_url: '/', scope: '/', display: 'standalone' });
  t.regex(manifest.theme_color, /^#[0-9a-f]{6}$/);
  t.regex(manifest.background_color, /^#[0-9a-f]{6}$/);
  t.deepEqual(manifest.share_target, { action: '/share', method: 'GET', enctype: 'application/x-www-form-urlencoded', params: { title: 'title', text: 'text', url: 'url' } });

  const pngs = manifest.icons.filter((icon) => icon.type === 'image/png');
  for (const size of ['48x48', '72x72', '96x96', '144x144', '192x192', '512x512']) t.true(pngs.some((icon) => icon.sizes === size && icon.purpose === 'any'), `icon ${size}`);
  for (const size of ['192x192', '512x512']) t.true(pngs.some((icon) => icon.sizes === size && icon.purpose === 'maskable'), `maskable icon ${size}`);
  for (const icon of pngs) {
    const answer = await fetch(`${bed.origin}${icon.src}`);
    t.is(answer.headers.get('content-type'), 'image/png', icon.src);
    t.is(pngSize(new Uint8Array(await answer.arrayBuffer())), icon.sizes, icon.src);
  }

  const html = await (await fetch(`${bed.origin}/`)).text();
  t.regex(html, /<link rel="manifest" href="\/manifest\.webmanifest"/);
  t.regex(html, /<link rel="apple-touch-icon" href="\/icons\/apple-touch-icon\.png"/);
  t.regex(html, /<meta name="theme-color" content="#[0-9a-f]{6}" media="\(prefers-color-scheme: light\)"/);
  t.regex(html, /<meta name="theme-color" content="#[0-9a-f]{6}" media="\(prefers-color-scheme: dark\)"/);
  t.is(pngSize(new Uint8Array(await (await fetch(`${bed.origin}/icons/apple-touch-icon.png`)).arrayBuffer())), '180x180');

  // The worker at the root (its scope), always revalidated: its bytes are how a new build is found.
  const worker = await fetch(`${bed.origin}/sw.js`);
  t.is(worker.status, 200);
  t.regex(worker.headers.get('content-type') ?? '', /javascript/);
  t.is(worker.headers.get('cache-control'), 'no-cache');
  const policy = worker.headers.get('content-security-policy') ?? '';
  t.regex(policy, /worker-src 'self' blob:;/);
  t.regex(policy, /manifest-src 'self';/);
});

test('offline, a reload opens the shell from the worker and says so in words; no API or media answer is cached', async (t) => {
  const owner = await bed.signUp('offline');
  const room = await bed.call<{ room: { id: string } }>('POST', '/api/rooms', { name: 'Offline night' }, owner.token);
  const { page, context, problems } = await bed.person({ viewport: 'phone' });
  await signIn(page, owner.username, `/rooms/${room.body.room.id}`);
  await page.getByRole('heading', { name: 'Offline night' }).waitFor();
  await controlledByWorker(page);
  await page.getByRole('heading', { name: 'Offline night' }).waitFor();
  t.is(await page.evaluate<string>('navigator.serviceWorker.controller.scriptURL'), `${bed.origin}/sw.js`);

  await context.setOffline(true);
  await page.reload();
  await page.getByRole('status').filter({ hasText: 'You are offline.' }).waitFor();
  await page.getByRole('link', { name: 'svc home' }).waitFor();
  t.deepEqual(await accessibilityProblems(page), []);

  const cached = await page.evaluate<string[]>(CACHED_URLS);
  t.true(cached.includes(`${bed.origin}/index.html`));
  t.deepEqual(cached.filter((url) => new URL(url).origin !== bed.origin || /^\/(api|media)(\/|$)/.test(new URL(url).pathname)), []);

  await context.setOffline(false);
  await page.getByText('You are offline.').waitFor({ state: 'detached' });
  // The refresh that could not reach the server while offline did not sign the person out: back
  // online, the session is asked for again and the room comes back.
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
  await page.getByRole('tab', { name: 'Chat' }).waitFor();
  // Chromium logs the requests that failed while offline; nothing else may be wrong.
  t.deepEqual(problems.filter((line) => !line.includes('net::ERR_INTERNET_DISCONNECTED')), []);
});

// Serial: it swaps this file's sw.js for the length of the test (see nextBuild).
test.serial('a new version: the notice says so, and Reload lets the new worker take over', async (t) => {
  const { page, problems } = await bed.person();
  await page.goto('/');
  await controlledByWorker(page);
  const [before] = await page.evaluate<string[]>('caches.keys()');
  t.regex(before ?? '', /^svc-shell-[0-9a-f]{16}$/);

  const restore = await nextBuild();
  try {
    await page.evaluate('navigator.serviceWorker.getRegistration().then((registration) => registration.update())');
    const notice = page.getByRole('status').filter({ hasText: 'A new version of svc is ready.' });
    await notice.waitFor();
    t.deepEqual(await accessibilityProblems(page), []);
    // Until Reload, the running worker keeps the page, and its cache stays beside the new one's.
    t.deepEqual((await page.evaluate<string[]>('caches.keys()')).sort(), [before, `svc-shell-${NEXT_VERSION}`].sort());
    t.true(await page.evaluate<boolean>(`navigator.serviceWorker.getRegistration().then((registration) => registration.waiting !== null)`));

    const reloaded = page.waitForEvent('load');
    await notice.getByRole('button', { name: 'Reload' }).click();
    await reloaded;
    await waitForPage(page, CONTROLLED);
    await waitForPage(page, `caches.keys().then((names) => names.join() === 'svc-shell-${NEXT_VERSION}')`);
    t.false(await page.getByText('A new version of svc is ready.').isVisible());
  } finally {
    await restore();
  }
  t.deepEqual(problems, []);
});

test('"Share → svc": a shared link lands filled in in the chosen room\'s add form, after a sign-in that comes back to it', async (t) => {
  const owner = await bed.signUp('sharer');
  const room = await bed.call<{ room: { id: string } }>('POST', '/api/rooms', { name: 'Shared night' }, owner.token);
  const { page, problems } = await bed.person({ viewport: 'phone' });
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  // A crafted "url": markup and a script in it stay characters in a field.
  const link = 'https://video.example/clip.mp4?x="><img src=x onerror=alert(1)><script>alert(2)</script>';
  const share = `/share?${new URLSearchParams({ title: 'A clip', text: 'look at this', url: link }).toString()}`;
  await page.goto(share);
  await page.getByRole('heading', { name: 'Add a shared link' }).waitFor();
  await page.getByText('Sign in to add this link to one of your rooms.').waitFor();

  await page.getByRole('link', { name: 'Sign in', exact: true }).last().click();
  const section = page.getByRole('region', { name: 'With your password' });
  await section.getByLabel('Username').fill(owner.username);
  await section.getByLabel('Password').fill(BED_PASSWORD);
  await section.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Add to Shared night' }).click();

  await page.waitForURL(`${bed.origin}/rooms/${room.body.room.id}`);
  const form = page.getByRole('form', { name: 'Add to the playlist' });
  await t.notThrowsAsync(form.getByLabel('Media URL').waitFor());
  t.is(await form.getByLabel('Media URL').inputValue(), link);
  t.is(await form.getByLabel('Title', { exact: true }).inputValue(), 'A clip');
  t.deepEqual(dialogs, []);
  t.is(await page.locator('img[src="x"]').count(), 0);
  t.deepEqual(problems, []);
});

test('a share without a web link says so and fills nothing', async (t) => {
  const { page, problems } = await bed.person();
  await page.goto(`/share?${new URLSearchParams({ title: 'x', text: 'no address here', url: 'javascript:alert(1)' }).toString()}`);
  await page.getByText('What was shared has no web link (http or https) to add.').waitFor();
  t.deepEqual(problems, []);
});

const NEXT_VERSION = 'fedcba9876543210';

/**
 * The next build as the browser's update check finds it: the built sw.js with another version
 * (and so another cache), put where this file's gateway serves it (with its .br and .gz), until
 * the returned function puts the build's own back. Playwright's routes do not see a worker's
 * update fetch, so the file itself changes (in this file's copy of the client).
 */
async function nextBuild(): Promise<() => Promise<void>> {
  const path = join(webClientRoot, 'sw.js');
  const files = [path, `${path}.br`, `${path}.gz`];
  const originals = await Promise.all(files.map((file) => readFile(file)));
  const next = Buffer.from(originals[0]!.toString().replace(/(version\\":\\")[0-9a-f]{16}/, `$1${NEXT_VERSION}`));
  if (next.equals(originals[0]!)) throw new Error('the built sw.js has no version to change');
  await Promise.all([writeFile(path, next), writeFile(`${path}.br`, brotliCompressSync(next)), writeFile(`${path}.gz`, gzipSync(next))]);
  return async () => {
    await Promise.all(files.map((file, index) => writeFile(file, originals[index]!)));
  };
}

/** The sign-in page with `next`, through its password form, as a person would. */
async function signIn(page: Page, username: string, next: string): Promise<void> {
  await page.goto(`/signin?next=${encodeURIComponent(next)}`);
  const section = page.getByRole('region', { name: 'With your password' });
  await section.getByLabel('Username').fill(username);
  await section.getByLabel('Password').fill(BED_PASSWORD);
  await section.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${bed.origin}${next}`);
}
