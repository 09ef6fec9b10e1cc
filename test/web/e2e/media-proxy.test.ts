/**
 * Proxied items in Chromium against the whole service: the owner adds a video hosted by
 * Debian's nginx through the add-media form with "Play through this server" ticked, and the
 * player plays it from the service's `/media/proxy/...` URL. The page never contacts nginx
 * itself (a request there would be a problem), while nginx sees the proxy's ranged reads.
 * The same for an HLS video-on-demand played by hls.js (this Chromium would play HLS natively;
 * the test hides that, as in Firefox or an older Chrome): its playlist rewritten by the proxy,
 * its segments read through it. And a viewer's chosen rung that fails for good: hls.js falls
 * back to Auto to keep playing, and the quality menu says so.
 */
import test, { type ExecutionContext } from 'ava';
import { startNginx, type Nginx } from '../../fixtures/nginx.js';
import { signInPage, startWebBed, waitForPage, type Person, type WebBed } from './browser.js';
import { makeTestHls, makeTestHlsLadder, makeTestVideo } from './media.js';

let bed: WebBed;
let nginx: Nginx;
let hlsPath: string;
let ladderPath: string;

test.before(async () => {
  const video = await makeTestVideo({ seconds: 12 });
  hlsPath = await makeTestHls(video.dir);
  ladderPath = await makeTestHlsLadder(video.dir);
  nginx = await startNginx({ root: video.dir });
  bed = await startWebBed('web_media_proxy', { autoplay: true, env: { SVC_MEDIA_PROXY_ALLOWED_NETWORKS: '127.0.0.0/8' } });
});
test.after.always(async () => {
  await Promise.allSettled([bed?.close(), nginx?.stop()]);
});

/** The owner's page in a new room, with `provider`'s item at `path` on nginx added through the form, proxied, and made current. */
async function proxiedItemPage(t: ExecutionContext, provider: 'direct' | 'hls', path: string, hideNativeHls = false): Promise<Person> {
  const owner = await bed.signUp(`owner-${provider}`);
  const created = await bed.call<{ room: { id: string } }>('POST', '/api/rooms', { name: 'Proxy night' }, owner.token);
  const roomId = created.body.room.id;
  const person = await bed.person();
  const { page } = person;
  if (hideNativeHls) {
    await person.context.addInitScript(`{
      const canPlayType = HTMLMediaElement.prototype.canPlayType;
      HTMLMediaElement.prototype.canPlayType = function (type) { return /mpegurl/i.test(type) ? '' : canPlayType.call(this, type); };
    }`);
  }
  await signInPage(page, owner.username);
  await page.goto(`/rooms/${roomId}`);

  await page.getByLabel('Media URL').fill(`${nginx.url}/${path}`);
  await page.getByLabel('Title', { exact: true }).fill('Proxied clock');
  await page.getByLabel('Provider').selectOption(provider);
  await page.getByLabel('Play through this server (media proxy)').check();
  await page.getByRole('button', { name: 'Add to playlist' }).click();
  await page.locator('.playlist-item').filter({ hasText: 'Proxied clock' }).waitFor();

  const playlist = await bed.call<{ items: Array<{ id: string; proxy: boolean; provider: string }> }>('GET', `/api/rooms/${roomId}/playlist`, undefined, owner.token);
  const [item] = playlist.body.items;
  t.true(item?.proxy, 'the form sent proxy: true');
  t.is(item?.provider, provider);
  await bed.call('PUT', `/api/rooms/${roomId}/playlist/current`, { mediaId: item!.id }, owner.token);

  await page.getByRole('button', { name: 'Play', exact: true }).waitFor({ timeout: 15_000 });
  await page.getByRole('button', { name: 'Play', exact: true }).click();
  await waitForPage(page, `document.querySelector('video').currentTime > 1.5`, 20_000);
  return person;
}

test.serial('a proxied item from nginx, added with the form, plays in Chromium through /media/proxy', async (t) => {
  const person = await proxiedItemPage(t, 'direct', 'clock.webm');
  const source = await person.page.evaluate<string>(`document.querySelector('video').currentSrc`);
  t.true(source.startsWith(`${bed.origin}/media/proxy/`), source);
  t.true((await nginx.requests()).some((request) => request.path === '/clock.webm' && request.range !== null), 'nginx served ranged reads to the proxy');
  t.deepEqual(person.problems, []);
});

test.serial('a proxied HLS item plays through hls.js: playlist and segments come through /media/proxy', async (t) => {
  await nginx.clearRequests();
  const person = await proxiedItemPage(t, 'hls', hlsPath, true);
  const { page } = person;
  t.is(await page.evaluate(`document.querySelector('video').dataset.sourceType`), 'hls');
  // hls.js feeds the element through Media Source Extensions: its source is a blob, not a URL.
  t.regex(await page.evaluate<string>(`document.querySelector('video').currentSrc`), /^blob:/);
  const served = await nginx.requests();
  t.true(served.some((request) => request.path === `/${hlsPath}` && request.status === 200), 'the playlist was read through the proxy');
  t.true(served.some((request) => /^\/hls\/seg\d+\.ts$/.test(request.path) && request.status < 300), 'segments were read through the proxy');
  t.deepEqual(person.problems, []);
});

test.serial('a chosen rung whose segments fail: playback goes on at Auto, and the quality menu says Auto', async (t) => {
  const person = await proxiedItemPage(t, 'hls', ladderPath, true);
  const { page } = person;
  await waitForPage(page, `document.querySelector('video').dataset.quality !== undefined`, 20_000);
  // From now on the 180p rung's segments are gone (what a broken rung of a real ladder looks like).
  let refused = 0;
  await page.route(/\/low\d+\.ts(\?|$)/, (route) => {
    refused += 1;
    return route.fulfill({ status: 404, body: 'gone' });
  });
  const menu = page.getByRole('menu', { name: 'Quality' });
  await page.getByRole('button', { name: 'Quality' }).click();
  await menu.getByRole('menuitemradio', { name: '180p' }).click();
  await waitForPage(page, `localStorage.getItem('svc.quality') === '180'`, 5_000);

  // hls.js does not retry a 404: it hands the rung back to its estimate, which plays 360p here.
  await waitForPage(page, `document.querySelector('video').dataset.quality === '360'`, 20_000);
  t.true(refused > 0, 'a 180p segment was asked for and refused');
  const before = await page.evaluate<number>(`document.querySelector('video').currentTime`);
  await waitForPage(page, `document.querySelector('video').currentTime > ${before + 1}`, 20_000);
  await page.getByRole('button', { name: 'Quality' }).click();
  t.is(await menu.getByRole('menuitemradio', { name: 'Auto' }).getAttribute('aria-checked'), 'true', 'the menu says Auto, which plays');
  t.is(await menu.getByRole('menuitemradio', { name: '180p' }).getAttribute('aria-checked'), 'false');
  t.is(await page.evaluate(`localStorage.getItem('svc.quality')`), '180', 'the choice is remembered for the next item');
  t.deepEqual(person.problems, []);
});
