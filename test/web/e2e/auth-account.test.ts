/**
 * Passkeys (Chromium's virtual authenticator over CDP) for signup and sign-in, and the account
 * page: two-factor authentication turned on there, then asked for and accepted at sign-in.
 */
import test from 'ava';
import { generate } from 'otplib';
import type { Page } from 'playwright-core';
import { checkAtBothWidths, signUpWithPassword, startWebBed, uniqueName, type Person, type WebBed } from './browser.js';

let bed: WebBed;
test.before(async () => {
  bed = await startWebBed('web_auth_account');
  await bed.set('user', { enableWebauthnSignup: true });
});
test.after.always(async () => {
  await bed?.close();
});

const PASSWORD = 'another long passphrase 42';

async function virtualAuthenticator(person: Person): Promise<void> {
  const cdp = await person.context.newCDPSession(person.page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
  });
}

async function signOut(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await page.getByRole('banner').getByRole('link', { name: 'Sign in' }).waitFor();
}

test('passkey signup, sign out, then passkey sign-in', async (t) => {
  const person = await bed.person();
  const { page, problems } = person;
  await virtualAuthenticator(person);
  const username = uniqueName('key');
  await page.goto('/signup');
  const section = page.getByRole('region', { name: 'With a passkey' });
  await section.getByLabel('Username').fill(username);
  await section.getByRole('button', { name: 'Sign up with a passkey' }).click();
  await page.getByRole('link', { name: username }).waitFor();
  await signOut(page);

  await page.goto('/signin?next=%2Faccount');
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await page.getByRole('heading', { name: 'Your account' }).waitFor();
  await page.getByRole('region', { name: 'Passkeys' }).getByText('Passkey', { exact: true }).waitFor();
  t.deepEqual(problems, []);
});

test('two-factor authentication: turned on in the account page, asked for at sign-in', async (t) => {
  const { page, problems } = await bed.person();
  const username = uniqueName('tfa');
  await signUpWithPassword(page, username, PASSWORD);
  await page.getByRole('link', { name: username }).click();
  await page.getByRole('heading', { name: 'Your account' }).waitFor();
  t.deepEqual(await checkAtBothWidths(page, 'account'), []);

  const section = page.getByRole('region', { name: 'Two-factor authentication' });
  await section.getByRole('button', { name: 'Set up two-factor authentication' }).click();
  const secretCode = section.locator('dd code').first();
  await secretCode.waitFor();
  const secret = ((await secretCode.textContent()) ?? '').trim();
  t.regex(await section.locator('dd code').nth(1).innerText(), /^otpauth:\/\/totp\//);
  const base = Date.now();
  await section.getByLabel('Code from the app').fill(await generate({ secret, epoch: Math.floor(base / 1000) }));
  await section.getByRole('button', { name: 'Turn on two-factor authentication' }).click();
  const codes = section.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
  await codes.first().waitFor();
  t.is(await codes.count(), 10);
  await section.getByRole('button', { name: 'I have saved them' }).click();
  await section.getByText(/^On\. 10 recovery codes left/).waitFor();

  await signOut(page);
  await page.goto('/signin');
  const form = page.getByRole('region', { name: 'With your password' });
  await form.getByLabel('Username').fill(username);
  await form.getByLabel('Password').fill(PASSWORD);
  await form.getByRole('button', { name: 'Sign in' }).click();
  const code = page.getByLabel('Authentication code');
  await code.waitFor();
  await code.fill(await generate({ secret, epoch: Math.floor(base / 1000) + 30 }));
  await page.getByRole('button', { name: 'Verify' }).click();
  await page.getByRole('link', { name: username }).waitFor();
  t.is(new URL(page.url()).pathname, '/');
  t.deepEqual(problems, []);
});

test('the account page sends visitors to sign in first', async (t) => {
  const { page, problems } = await bed.person();
  await page.goto('/account');
  await page.waitForURL(`${bed.origin}/signin?next=/account`);
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  t.pass();
  t.deepEqual(problems, []);
});
