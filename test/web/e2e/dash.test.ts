/**
 * MPEG-DASH in Chromium against the whole service: an ffmpeg-made DASH video-on-demand served
 * by Debian's nginx plays through dash.js, fetched by the browsers themselves (direct) and
 * through the media proxy (its manifest rewritten), and two members stay in step on it.
 */
import test, { type ExecutionContext } from 'ava';
import { startNginx, type Nginx } from '../../fixtures/nginx.js';
import type { Member } from '../../gateways/bed.js';
import { signInPage, startWebBed, waitForPage, type Person, type WebBed } from './browser.js';
import { seekFromControls, settled, SETTLE_MS, TOLERANCE_S } from './in-sync.js';
import { makeTestDash, makeTestVideo } from './media.js';

const CORS = `location / {
  add_header Access-Control-Allow-Origin * always;
  if ($request_method = OPTIONS) {
    add_header Access-Control-Allow-Origin *;
    add_header Access-Control-Allow-Headers $http_access_control_request_headers;
    return 204;
  }
}`;

let bed: WebBed;
let nginx: Nginx;
let manifestPath: string;

test.before(async () => {
  const video = await makeTestVideo({ seconds: 2, size: '160x90' });
  manifestPath = await makeTestDash(video.dir, { seconds: 40 });
  // dash.js fetches with XHR, preflighted: a host serving DASH to browsers directly must answer CORS.
  nginx = await startNginx({ root: video.dir, serverConfig: CORS });
  bed = await startWebBed('web_dash', { autoplay: true, env: { SVC_MEDIA_PROXY_ALLOWED_NETWORKS: '127.0.0.0/8' } });
});
test.after.always(async () => {
  await Promise.allSettled([bed?.close(), nginx?.stop()]);
});

async function openRoom(member: Member, roomId: string, direct: boolean): Promise<Person> {
  // Direct, the browser fetches from nginx itself; proxied, a request there would be a problem.
  const person = await bed.person({ allowHosts: direct ? [new URL(nginx.url).host] : [] });
  await signInPage(person.page, member.username);
  await person.page.goto(`/rooms/${roomId}`);
  await person.page.getByRole('button', { name: 'Play', exact: true }).waitFor({ timeout: SETTLE_MS });
  return person;
}

async function twoInStep(t: ExecutionContext, label: string, proxy: boolean): Promise<void> {
  const [owner, friend] = await Promise.all([bed.signUp(`owner-${label}`), bed.signUp(`friend-${label}`)]);
  const created = await bed.call<{ room: { id: string } }>('POST', '/api/rooms', { name: 'DASH night' }, owner.token);
  const roomId = created.body.room.id;
  await bed.call('POST', `/api/rooms/${roomId}/join`, {}, friend.token);
  const added = await bed.call<{ item: { id: string } }>('POST', `/api/rooms/${roomId}/playlist`, { title: 'DASH clock', url: `${nginx.url}/${manifestPath}`, provider: 'dash', proxy }, owner.token);
  t.is(added.status, 201);
  await bed.call('PUT', `/api/rooms/${roomId}/playlist/current`, { mediaId: added.body.item.id }, owner.token);
  await nginx.clearRequests();

  const a = await openRoom(owner, roomId, !proxy);
  const b = await openRoom(friend, roomId, !proxy);
  await a.page.getByRole('button', { name: 'Play', exact: true }).click();
  for (const person of [a, b]) {
    await waitForPage(person.page, `document.querySelector('video').currentTime > 1`, SETTLE_MS).catch(async (error: unknown) => {
      const state = await person.page.evaluate<string>(`(() => { const v = document.querySelector('video'); return JSON.stringify({ rs: v.readyState, ns: v.networkState, t: v.currentTime, p: v.paused, b: v.buffered.length, src: v.currentSrc }); })()`);
      throw new Error(`${String(error)}; the page says: ${await person.page.innerText('.player').catch(() => '?')}; ${person.problems.join('; ')} ${state}`);
    });
    t.is(await person.page.evaluate(`document.querySelector('video').dataset.sourceType`), 'dash');
    // dash.js feeds the element through Media Source Extensions.
    t.regex(await person.page.evaluate<string>(`document.querySelector('video').currentSrc`), /^blob:/);
  }
  t.true((await settled([a.page, b.page], 1)) <= TOLERANCE_S, 'in step after play');

  // A seek from the controls lands both in a segment not fetched yet.
  await seekFromControls(a.page, 25);
  t.true((await settled([a.page, b.page], 25)) <= TOLERANCE_S, 'in step after the seek');

  const served = await nginx.requests();
  t.true(served.some((entry) => entry.path === `/${manifestPath}`), 'the manifest was read from nginx');
  t.true(served.some((entry) => /^\/dash\/chunk-stream0-000(1[3-9]|2\d)\.m4s$/.test(entry.path)), 'segments after the seek were read');
  t.deepEqual([...a.problems, ...b.problems], []);
}

test.serial('a DASH item plays through dash.js straight from nginx, two members in step through play and seek', async (t) => {
  await twoInStep(t, 'direct', false);
});

test.serial('a proxied DASH item plays through the rewritten manifest; the browsers never contact nginx', async (t) => {
  await twoInStep(t, 'proxied', true);
});
