/**
 * Sign-in and sign-up pages in Chromium: OPAQUE signup and sign-in without the password ever
 * leaving the page, a signup under review, a wrong password, guests, and the pages' accessibility.
 * Serial: one test changes the signup review setting the others rely on being off.
 */
import test from 'ava';
import type { Page } from 'playwright-core';
import { checkAtBothWidths, signUpWithPassword, startWebBed, uniqueName, type WebBed } from './browser.js';

let bed: WebBed;
test.before(async () => {
  bed = await startWebBed('web_auth');
});
test.after.always(async () => {
  await bed?.close();
});

const PASSWORD = 'a long and unusual passphrase 7';


/**
 * Every request body the page sends. The API client clones each request (to retry it after a
 * token refresh), which turns its body into a stream that the DevTools protocol does not report,
 * so fetch is also wrapped in the page. The bodies are handed to the test through a binding,
 * which survives navigations.
 */
type Bodies = { url: string; body: string }[] & { onRecord?: (url: string) => void };

async function recordRequestBodies(page: Page): Promise<Bodies> {
  const bodies: Bodies = [];
  const record = (url: string, body: string): void => {
    const path = new URL(url).pathname;
    bodies.push({ url: path, body });
    bodies.onRecord?.(path);
  };
  page.on('request', (request) => {
    const body = request.postData();
    if (body) record(request.url(), body);
  });
  await page.exposeFunction('svcTestRecordBody', record);
  await page.addInitScript(`(() => {
    const original = window.fetch;
    window.fetch = function (input, init) {
      try {
        const copy = input instanceof Request && init === undefined ? input.clone() : new Request(input, init);
        copy.text().then((body) => { if (body) window.svcTestRecordBody(copy.url, body); }, () => {});
      } catch {}
      return original.call(this, input, init);
    };
  })()`);
  return bodies;
}

async function signInWithPassword(page: Page, username: string, password = PASSWORD, path = '/signin'): Promise<void> {
  await page.goto(path);
  const section = page.getByRole('region', { name: 'With your password' });
  await section.getByLabel('Username').fill(username);
  await section.getByLabel('Password').fill(password);
  await section.getByRole('button', { name: 'Sign in' }).click();
}

test.serial('OPAQUE signup, sign out, then OPAQUE sign-in back to ?next=: the password never leaves the page', async (t) => {
  const { page, problems } = await bed.person();
  const bodies = await recordRequestBodies(page);
  const loginFinishRecorded = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the login/finish body was never recorded')), 60_000);
    bodies.onRecord = (url) => {
      if (url !== '/api/auth/opaque/login/finish') return;
      clearTimeout(timer);
      resolve();
    };
  });
  const username = uniqueName('opq');
  await signUpWithPassword(page, username, PASSWORD);
  await page.getByRole('link', { name: username }).waitFor();
  t.is(new URL(page.url()).pathname, '/');

  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByRole('banner').getByRole('link', { name: 'Sign in' }).waitFor();

  await signInWithPassword(page, username, PASSWORD, '/signin?next=%2Faccount');
  await page.getByRole('heading', { name: 'Your account' }).waitFor();
  t.is(new URL(page.url()).pathname, '/account');

  // The bodies reach the test through an asynchronous binding: wait for the last one.
  await loginFinishRecorded;
  const paths = bodies.map((entry) => entry.url);
  for (const step of ['/api/auth/opaque/register/start', '/api/auth/opaque/register/finish', '/api/auth/opaque/login/start', '/api/auth/opaque/login/finish']) {
    t.true(paths.includes(step), `${step} was called`);
  }
  t.false(paths.some((path) => path.startsWith('/api/auth/password/')), 'no direct-password endpoint was used');
  t.deepEqual(
    bodies.filter((entry) => entry.body.includes(PASSWORD) || entry.body.includes(encodeURIComponent(PASSWORD))).map((entry) => entry.url),
    [],
  );
  t.deepEqual(problems, []);
});

test.serial('a next= to another site is ignored', async (t) => {
  const { page, problems } = await bed.person();
  const username = uniqueName('nxt');
  await signUpWithPassword(page, username, PASSWORD);
  await page.getByRole('link', { name: username }).waitFor();
  await page.getByRole('button', { name: 'Sign out' }).click();
  await signInWithPassword(page, username, PASSWORD, '/signin?next=%2F%2Fevil.example%2Fx');
  await page.getByRole('link', { name: username }).waitFor();
  t.is(page.url(), `${bed.origin}/`);
  t.deepEqual(problems, []);
});

test.serial('a signup under review says it waits for review, and signing in says the review is pending', async (t) => {
  await bed.set('user', { passwordSignupNeedReview: true });
  try {
    const { page, problems } = await bed.person();
    const username = uniqueName('rev');
    await signUpWithPassword(page, username, PASSWORD);
    await page.getByRole('status').filter({ hasText: 'Waiting for review' }).waitFor();
    t.true(await page.getByText('waiting for review by an administrator').isVisible());

    await signInWithPassword(page, username);
    const alert = page.getByRole('alert').filter({ hasText: 'Your account is waiting for review' });
    await alert.waitFor();
    t.regex((await alert.textContent()) ?? '', /your signup is waiting for review/);
    t.is(new URL(page.url()).pathname, '/signin');
    t.deepEqual(problems, []);
  } finally {
    await bed.set('user', { passwordSignupNeedReview: false });
  }
});

test.serial('a wrong password shows the error above the form; a guest continues with a display name', async (t) => {
  const { page, problems } = await bed.person({ viewport: 'phone' });
  await signInWithPassword(page, uniqueName('nobody'), 'not the password at all');
  const alert = page.getByRole('region', { name: 'With your password' }).getByRole('alert');
  await alert.waitFor();
  t.regex((await alert.textContent()) ?? '', /invalid username or password/i);

  const guest = page.getByRole('region', { name: 'Without an account' });
  await guest.getByLabel('Display name').fill('Gus the guest');
  await guest.getByRole('button', { name: 'Continue as guest' }).click();
  await page.getByText('Gus the guest (guest)').waitFor();
  t.is(new URL(page.url()).pathname, '/');
  t.deepEqual(problems, []);
});

test.serial('the sign-in and sign-up pages have no serious accessibility problem at either width', async (t) => {
  const { page, problems } = await bed.person();
  await page.goto('/signin');
  await page.getByRole('button', { name: 'Continue as guest' }).waitFor();
  t.deepEqual(await checkAtBothWidths(page, 'signin'), []);
  await page.goto('/signup');
  await page.getByRole('region', { name: 'With a password' }).waitFor();
  t.deepEqual(await checkAtBothWidths(page, 'signup'), []);
  t.deepEqual(problems, []);
});
