/**
 * The installable app as Chromium and Lighthouse judge it, in an ordinary (not incognito)
 * browser profile: Chromium's installability verdict is empty of errors once the service worker
 * controls the page, and Lighthouse's accessibility and best-practices audits all pass on a
 * member's room page at phone and desktop form factors. One Lighthouse run per form factor (each
 * costs seconds); a repeat visit, so the worker serves the shell.
 */
import { randomUUID } from 'node:crypto';
import test from 'ava';
import { controlledByWorker, signInPage, startWebBed, type WebBed } from './browser.js';
import { failedAudits, openProfile, runLighthouse, type FormFactor, type Profile } from './lighthouse.js';

let bed: WebBed;
let profile: Profile;
let roomUrl: string;
test.before(async () => {
  bed = await startWebBed('web_lighthouse');
  const owner = await bed.signUp('lighthouse');
  const friend = await bed.signUp('lighthouse-friend');
  const room = await bed.call<{ room: { id: string } }>('POST', '/api/rooms', { name: 'Lighthouse night' }, owner.token);
  // Two people without a picture in the header, the member list and the chat: their avatars are
  // asked for and answered "none" (initials instead), which must not count as a console error.
  await bed.call('POST', `/api/rooms/${room.body.room.id}/join`, {}, friend.token);
  await bed.call('POST', `/api/rooms/${room.body.room.id}/chat`, { text: 'Popcorn is ready', clientMessageId: randomUUID() }, friend.token);
  roomUrl = `${bed.origin}/rooms/${room.body.room.id}`;
  profile = await openProfile(bed.origin);
  await signInPage(profile.page, owner.username);
  await profile.page.goto(roomUrl);
  await profile.page.getByRole('heading', { name: 'Lighthouse night' }).waitFor();
  await controlledByWorker(profile.page);
  await profile.page.getByRole('heading', { name: 'Lighthouse night' }).waitFor();
});
test.after.always(async () => {
  await profile?.close();
  await bed?.close();
});

test.serial('Chromium finds the app installable: the manifest parses cleanly and nothing stands in the way', async (t) => {
  const cdp = await profile.context.newCDPSession(profile.page);
  const manifest = await cdp.send('Page.getAppManifest');
  t.deepEqual(manifest.errors, []);
  const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
  t.deepEqual(installabilityErrors, []);
  t.is(await profile.page.evaluate<string>('navigator.serviceWorker.controller.scriptURL'), `${bed.origin}/sw.js`);
  await cdp.detach();
});

for (const formFactor of ['phone', 'desktop'] as FormFactor[]) {
  test.serial(`Lighthouse on a room page (${formFactor}): every accessibility and best-practices audit that applies passes`, async (t) => {
    const result = await runLighthouse(roomUrl, profile.port, formFactor, { onlyCategories: ['accessibility', 'best-practices'], throttlingMethod: 'provided' });
    t.is(result.finalDisplayedUrl, roomUrl);
    t.deepEqual([...failedAudits(result, 'accessibility'), ...failedAudits(result, 'best-practices')], []);
  });
}
