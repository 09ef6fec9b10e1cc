/**
 * A proxied item in Chromium against the whole service: the owner adds a video hosted by
 * Debian's nginx through the add-media form with "Play through this server" ticked, and the
 * player plays it from the service's `/media/proxy/...` URL. The page never contacts nginx
 * itself (a request there would be a problem), while nginx sees the proxy's ranged reads.
 */
import test from 'ava';
import { startNginx, type Nginx } from '../../fixtures/nginx.js';
import { signInPage, startWebBed, waitForPage, type WebBed } from './browser.js';
import { makeTestVideo } from './media.js';

let bed: WebBed;
let nginx: Nginx;

test.before(async () => {
  const video = await makeTestVideo({ seconds: 12 });
  nginx = await startNginx({ root: video.dir });
  bed = await startWebBed('web_media_proxy', { autoplay: true, env: { SVC_MEDIA_PROXY_ALLOWED_NETWORKS: '127.0.0.0/8' } });
});
test.after.always(async () => {
  await Promise.allSettled([bed?.close(), nginx?.stop()]);
});

test.serial('a proxied item from nginx, added with the form, plays in Chromium through /media/proxy', async (t) => {
  const owner = await bed.signUp('owner');
  const created = await bed.call<{ room: { id: string } }>('POST', '/api/rooms', { name: 'Proxy night' }, owner.token);
  const roomId = created.body.room.id;
  const person = await bed.person();
  const { page } = person;
  await signInPage(page, owner.username);
  await page.goto(`/rooms/${roomId}`);

  await page.getByLabel('Media URL').fill(`${nginx.url}/clock.webm`);
  await page.getByLabel('Title', { exact: true }).fill('Proxied clock');
  await page.getByLabel('Provider').selectOption('direct');
  await page.getByLabel('Play through this server (media proxy)').check();
  await page.getByRole('button', { name: 'Add to playlist' }).click();
  await page.locator('.playlist-item').filter({ hasText: 'Proxied clock' }).waitFor();

  const playlist = await bed.call<{ items: Array<{ id: string; proxy: boolean }> }>('GET', `/api/rooms/${roomId}/playlist`, undefined, owner.token);
  const [item] = playlist.body.items;
  t.true(item?.proxy, 'the form sent proxy: true');
  await bed.call('PUT', `/api/rooms/${roomId}/playlist/current`, { mediaId: item!.id }, owner.token);

  await page.getByRole('button', { name: 'Play', exact: true }).waitFor({ timeout: 15_000 });
  await page.getByRole('button', { name: 'Play', exact: true }).click();
  await waitForPage(page, `document.querySelector('video').currentTime > 1.5`, 20_000);
  const source = (await page.evaluate(`document.querySelector('video').currentSrc`)) as string;
  t.true(source.startsWith(`${bed.origin}/media/proxy/`), source);
  t.true((await nginx.requests()).some((request) => request.path === '/clock.webm' && request.range !== null), 'nginx served ranged reads to the proxy');
  t.deepEqual(person.problems, []);
});
