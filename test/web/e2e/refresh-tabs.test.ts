/**
 * Two tabs of one browser refresh their access tokens at the same moment (here: both load the
 * app at once, which restores the session with a refresh) and both stay signed in: the tabs take
 * turns under a Web Lock and share the answer, and the session is not revoked as a stolen token.
 */
import test from 'ava';
import type { Page, Route } from 'playwright-core';
import { BED_PASSWORD } from '../../gateways/bed.js';
import { signInPage, startWebBed, type WebBed } from './browser.js';

let bed: WebBed;
test.before(async () => {
  bed = await startWebBed('web_refresh_tabs');
});
test.after.always(async () => {
  await bed?.close();
});

/** Resolves with what the page's header shows once the session restore has settled. */
async function shownAs(page: Page, username: string): Promise<'signed_in' | 'signed_out'> {
  const user = page.getByRole('link', { name: username });
  const signIn = page.getByRole('banner').getByRole('link', { name: 'Sign in' });
  await user.or(signIn).first().waitFor({ timeout: 20_000 });
  return (await user.count()) > 0 ? 'signed_in' : 'signed_out';
}

test('two tabs refreshing at once both stay signed in, and the session lives on', async (t) => {
  const member = await bed.signUp('tabs');
  const { context, page: first } = await bed.person();
  await signInPage(first, member.username, BED_PASSWORD);
  const second = await context.newPage();

  // The first refresh to reach the server is held until a second one arrives (what two tabs
  // without coordination send, with the same cookie) or, failing that, for a moment: the race
  // of two uncoordinated tabs is then certain instead of a matter of timing.
  const refreshes: string[] = [];
  let releaseHeld: (() => void) | undefined;
  await context.route('**/api/auth/refresh', async (route: Route) => {
    refreshes.push(route.request().headers().cookie ?? '');
    if (releaseHeld) {
      releaseHeld();
      await route.continue();
      return;
    }
    await new Promise<void>((resolve) => {
      releaseHeld = resolve;
      setTimeout(resolve, 1_500);
    });
    await route.continue();
  });

  await Promise.all([first.goto('/'), second.goto('/')]);
  const shown = await Promise.all([shownAs(first, member.username), shownAs(second, member.username)]);
  t.deepEqual(shown, ['signed_in', 'signed_in'], `refreshes sent: ${refreshes.length}`);
  // No refresh token went out twice at once.
  t.is(new Set(refreshes).size, refreshes.length, 'two refreshes carried the same cookie');
  await context.unroute('**/api/auth/refresh');

  // The session is alive: a reload of each tab (each restoring with a refresh) stays signed in.
  for (const page of [first, second]) {
    await page.reload();
    t.is(await shownAs(page, member.username), 'signed_in');
  }
});
