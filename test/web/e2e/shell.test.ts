/**
 * The web client as the gateway serves it: same origin, hashed assets cached for good, the
 * index revalidated, deep links answered with the client, a strict CSP, and the page itself
 * loading in Chromium without errors, outside requests or serious accessibility problems.
 */
import test from 'ava';
import { contentSecurityPolicy } from '../../../gateways/http/web-client.js';
import { checkAtBothWidths, startWebBed, type WebBed } from './browser.js';

let bed: WebBed;
test.before(async () => {
  bed = await startWebBed('web_shell');
});
test.after.always(async () => {
  await bed?.close();
});

test('GET / is the client with a strict CSP, revalidated on every visit', async (t) => {
  const response = await fetch(`${bed.origin}/`);
  t.is(response.status, 200);
  t.regex(response.headers.get('content-type') ?? '', /^text\/html/);
  t.is(response.headers.get('cache-control'), 'no-cache');
  const policy = response.headers.get('content-security-policy');
  // With the default configuration: YouTube's API script and its privacy-enhanced player frames, nothing wider.
  t.is(policy, contentSecurityPolicy([{ script: 'https://www.youtube.com/iframe_api', frameOrigin: 'https://www.youtube-nocookie.com' }]));
  t.regex(policy ?? '', /script-src 'self' 'wasm-unsafe-eval' https:\/\/www\.youtube\.com;/);
  t.regex(policy ?? '', /frame-src https:\/\/www\.youtube-nocookie\.com$/);
  // No SFU here: no WebSocket origin beyond the page's own; with one, exactly its origin.
  t.regex(policy ?? '', /connect-src 'self' https: http:;/);
  t.regex(contentSecurityPolicy([], 'wss://sfu.example.com:7443/rtc'), /connect-src 'self' https: http: wss:\/\/sfu\.example\.com:7443;/);
  t.is(response.headers.get('x-content-type-options'), 'nosniff');
  const html = await response.text();
  t.regex(html, /<script type="module" crossorigin src="\/assets\/index-[\w-]+\.js"><\/script>/);
  t.notRegex(html, /<script>(?!<\/script>)/, 'no inline script: the CSP would block it');
});

test('hashed assets are immutable for a year and come compressed', async (t) => {
  const html = await (await fetch(`${bed.origin}/`)).text();
  const script = /src="(\/assets\/index-[\w-]+\.js)"/.exec(html)?.[1];
  t.truthy(script);
  const response = await fetch(`${bed.origin}${script}`, { headers: { 'accept-encoding': 'br' } });
  t.is(response.status, 200);
  t.is(response.headers.get('cache-control'), 'max-age=31536000,immutable');
  t.is(response.headers.get('content-encoding'), 'br');
  t.regex(response.headers.get('content-type') ?? '', /javascript/);
});

test('a deep link is answered with the client (a dotted one too); API paths and missing files are not', async (t) => {
  const deep = await fetch(`${bed.origin}/rooms/some-room-id?x=1`);
  t.is(deep.status, 200);
  t.regex(await deep.text(), /<div id="app">/);
  // A page whose address has a dot in it: a setting's history names its dotted key.
  const dotted = await fetch(`${bed.origin}/admin/settings/server.maxRoomsPerUser`);
  t.is(dotted.status, 200);
  t.regex(await dotted.text(), /<div id="app">/);

  const api = await fetch(`${bed.origin}/api/no-such-endpoint`);
  t.is(api.status, 404);
  t.is(((await api.json()) as { code: string }).code, 'not_found');

  const asset = await fetch(`${bed.origin}/assets/index-gone.js`);
  t.is(asset.status, 404);
  const outside = await fetch(`${bed.origin}/..%2f..%2fpackage.json`);
  t.not(outside.status, 200);
  const post = await fetch(`${bed.origin}/`, { method: 'POST' });
  t.is(post.status, 404);
});

test('the home page loads in Chromium with no errors, no outside requests, and no serious accessibility problem', async (t) => {
  const { page, problems } = await bed.person();
  await page.goto('/');
  await page.getByRole('link', { name: 'svc home' }).waitFor();
  await page.getByRole('heading', { level: 1 }).waitFor();
  t.deepEqual(await checkAtBothWidths(page, 'home'), []);
  t.deepEqual(problems, []);
});

test('an unknown path shows the not-found page with a way back', async (t) => {
  const { page, problems } = await bed.person({ viewport: 'phone' });
  await page.goto('/no/such/page');
  await page.getByRole('heading', { name: 'Page not found' }).waitFor();
  await page.getByRole('link', { name: 'Browse rooms' }).click();
  await page.waitForURL(`${bed.origin}/rooms`);
  t.deepEqual(problems, []);
});
