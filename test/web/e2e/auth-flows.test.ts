/**
 * Sign-in flows of the web client that need a peer besides the service, in Chromium against the
 * real server: OAuth2 / OIDC sign-in, signup and binding against a real OpenID provider, email
 * signup and password reset with the codes and links read from mail the service really sent, and the
 * account page's password change and passkeys (Chromium's virtual authenticator over CDP).
 * Serial: each test is a whole browser sign-in or two; side by side on a small machine they only
 * push each other past their deadlines.
 */
import { randomBytes } from 'node:crypto';
import test from 'ava';
import type { Locator, Page } from 'playwright-core';
import { startOidcProvider, type TestOidcProvider } from '../../fixtures/oidc-provider.js';
import { startSmtpSink, type SmtpSink } from '../../fixtures/smtp-sink.js';
import { mailedCode, mailedLink, queryBed, signInAtProvider, smtpEnv, useOidcInstances } from './auth-peers.js';
import { checkAtBothWidths, signInPage, signUpWithPassword, startWebBed, uniqueName, type Person, type WebBed } from './browser.js';

let bed: WebBed;
let smtp: SmtpSink;
let op: TestOidcProvider;
/** The provider's host:port, which pages may reach without it counting as a stray request. */
let providerHost: string;

test.before(async () => {
  smtp = await startSmtpSink();
  op = await startOidcProvider({ clients: [] });
  providerHost = new URL(op.issuer).host;
  bed = await startWebBed('web_auth_flows', { env: smtpEnv(smtp) });
  // acme takes new accounts; corp only signs in identities bound to an existing account.
  await useOidcInstances(bed, op, [
    { name: 'acme', enableSignup: true },
    { name: 'corp', enableSignup: false },
  ]);
  await bed.set('user', { enableEmailSignup: true, emailSignupNeedReview: false });
});
test.after.always(async () => {
  await bed?.close();
  await op?.close();
  await smtp?.close();
});

const PASSWORD = 'a long and unusual passphrase 7';
const NEW_PASSWORD = 'quite another passphrase 99';
const emailOf = (username: string): string => `${username.replace(/[^a-z0-9]/gi, '')}@example.org`;

async function signOut(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await page.getByRole('banner').getByRole('link', { name: 'Sign in' }).waitFor();
}

async function signInWithPassword(page: Page, username: string, password: string): Promise<void> {
  await page.goto('/signin');
  const section = page.getByRole('region', { name: 'With your password' });
  await section.getByLabel('Username').fill(username);
  await section.getByLabel('Password').fill(password);
  await section.getByRole('button', { name: 'Sign in' }).click();
}

/** The reset form's last step: a new password, then a sign-in with it through the page. */
async function finishReset(page: Page, reset: Locator, username: string): Promise<void> {
  await reset.getByLabel('New password').fill(NEW_PASSWORD);
  await reset.getByLabel('Repeat the password').fill(NEW_PASSWORD);
  await reset.getByRole('button', { name: 'Set the new password' }).click();
  await page.getByRole('status').filter({ hasText: 'Your new password is set and every session was signed out' }).waitFor();
  await signInWithPassword(page, username, NEW_PASSWORD);
  await page.getByRole('banner').getByRole('link', { name: username }).waitFor();
}

/** An account at the provider, with the claims a real one sends. */
function providerAccount(name: string): { sub: string; username: string } {
  const sub = `sub-${randomBytes(6).toString('hex')}`;
  const username = uniqueName('oidc');
  op.addAccount(sub, { preferred_username: username, name, email: emailOf(username), email_verified: true });
  return { sub, username };
}

async function virtualAuthenticator(person: Person): Promise<void> {
  const cdp = await person.context.newCDPSession(person.page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
  });
}

test.serial('OAuth2: the signup button makes an account from the provider identity, and the sign-in button finds it again', async (t) => {
  const { sub, username } = providerAccount('Olivia Provider');
  const first = await bed.person({ allowHosts: [providerHost] });
  await first.page.goto('/signup');
  await first.page.getByRole('region', { name: 'With another service' }).getByRole('link', { name: 'Sign up with acme' }).click();
  await signInAtProvider(first.page, op, sub, bed.origin);
  await first.page.getByRole('banner').getByRole('link', { name: 'Olivia Provider' }).waitFor();
  t.is(new URL(first.page.url()).pathname, '/');

  const users = await queryBed<{ id: string; username: string; email: string | null }>(bed, 'SELECT id, username, email FROM users WHERE username = $1', [username]);
  t.is(users.length, 1, 'the account exists under the provider handle');
  t.is(users[0]?.email, emailOf(username));
  const bindings = await queryBed<{ user_id: string }>(bed, 'SELECT user_id FROM oauth2_bindings WHERE instance_name = $1 AND subject = $2', ['acme', sub]);
  t.deepEqual(bindings, [{ user_id: users[0]?.id }]);

  // A second browser has no provider session, so the provider prompts again.
  const second = await bed.person({ allowHosts: [providerHost] });
  await second.page.goto('/signin?next=%2Faccount');
  await second.page.getByRole('link', { name: 'Sign in with acme' }).click();
  await signInAtProvider(second.page, op, sub, bed.origin);
  await second.page.getByRole('banner').getByRole('link', { name: 'Olivia Provider' }).click();
  await second.page.getByRole('heading', { name: 'Your account' }).waitFor();
  await second.page.getByRole('region', { name: 'Profile' }).getByText(username, { exact: true }).waitFor();
  t.deepEqual(await queryBed(bed, 'SELECT count(*)::int AS n FROM users WHERE email = $1', [emailOf(username)]), [{ n: 1 }], 'no second account');
  t.deepEqual([...first.problems, ...second.problems], []);
});

test.serial('OAuth2: an identity bound on the account page is listed there and signs in to that account', async (t) => {
  const member = await bed.signUp('bind');
  const { sub } = providerAccount('Someone Else Entirely');
  const { page, problems } = await bed.person({ allowHosts: [providerHost] });
  await signInPage(page, member.username);
  await page.goto('/account');
  const section = page.getByRole('region', { name: 'Other services' });
  const corp = section.getByRole('listitem').filter({ hasText: 'corp' });
  await corp.getByText('Not connected').waitFor();
  await section.getByRole('button', { name: 'Connect corp' }).click();
  await signInAtProvider(page, op, sub, bed.origin);
  await page.waitForURL(`${bed.origin}/account`);
  await corp.getByText(/^Connected /).waitFor();
  t.true(await section.getByRole('button', { name: 'Disconnect corp' }).isVisible());

  // corp takes no new accounts: only the binding can make this sign-in succeed.
  const other = await bed.person({ allowHosts: [providerHost] });
  await other.page.goto('/signin');
  await other.page.getByRole('link', { name: 'Sign in with corp' }).click();
  await signInAtProvider(other.page, op, sub, bed.origin);
  await other.page.getByRole('banner').getByRole('link', { name: member.username }).waitFor();
  t.deepEqual([...problems, ...other.problems], []);
});

test.serial('email signup: the code from the mail, typed into the page, creates the account with that address and signs in', async (t) => {
  const { page, problems } = await bed.person();
  const username = uniqueName('mail');
  const email = emailOf(username);
  await page.goto('/signup');
  const section = page.getByRole('region', { name: 'With your email address' });
  await section.getByLabel('Email address').fill(email);
  await section.getByLabel('Username').fill(username);
  await section.getByRole('button', { name: 'Send the confirmation code' }).click();
  await section.getByRole('status').filter({ hasText: `A code is on its way to ${email}` }).waitFor();

  t.deepEqual(await checkAtBothWidths(page, 'signup-email-code'), []);

  const mail = await smtp.waitForMail(email, (received) => received.subject.startsWith('Your sign-up code'));
  await section.getByLabel('Confirmation code').fill(mailedCode(mail.text));
  await section.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await section.getByLabel('Repeat the password').fill(PASSWORD);
  await section.getByRole('button', { name: 'Create the account' }).click();
  await page.getByRole('banner').getByRole('link', { name: username }).click();
  await page.getByRole('region', { name: 'Profile' }).getByText(`Email: ${email}`).waitFor();
  t.deepEqual(problems, []);
});

test.serial('password reset: the code from the mail and a new password through the page, which then signs in with it', async (t) => {
  const username = uniqueName('reset');
  const email = emailOf(username);
  t.is((await bed.call('POST', '/api/auth/email/signup/start', { email, username })).status, 202);
  const signupMail = await smtp.waitForMail(email, (received) => received.subject.startsWith('Your sign-up code'));
  const created = await bed.call<{ accessToken: string }>('POST', '/api/auth/email/signup/confirm', { email, code: mailedCode(signupMail.text), password: PASSWORD }, undefined, { 'x-svc-client': 'native' });
  t.is(created.status, 201);

  const { page, problems } = await bed.person();
  await page.goto('/signin');
  await page.getByRole('button', { name: 'Forgot password?' }).click();
  const reset = page.getByRole('region', { name: 'Reset your password' });
  await reset.getByLabel('Email address').fill(email);
  await reset.getByRole('button', { name: 'Send the code' }).click();
  await reset.getByRole('status').filter({ hasText: `If ${email} belongs to an account, a code is on its way` }).waitFor();

  t.deepEqual(await checkAtBothWidths(page, 'password-reset-code'), []);

  const mail = await smtp.waitForMail(email, (received) => received.subject.startsWith('Your password reset code'));
  await reset.getByLabel('Code from the email').fill(mailedCode(mail.text));
  await finishReset(page, reset, username);
  t.is((await bed.call('GET', '/api/me', undefined, created.body.accessToken)).status, 401, 'the session from before the reset is signed out');
  t.deepEqual(problems, []);
});

test.serial('email signup: the link from the mail opens the password step with the address and code, and ends signed in with that address', async (t) => {
  const username = uniqueName('link');
  const email = emailOf(username);
  // Asked from anywhere (another device, a native client): the link alone carries the flow on.
  t.is((await bed.call('POST', '/api/auth/email/signup/start', { email, username })).status, 202);
  const mail = await smtp.waitForMail(email, (received) => received.subject.startsWith('Your sign-up code'));
  const link = mailedLink(mail.text);
  t.is(new URL(link).pathname, '/auth/confirm-email');

  const { page, problems } = await bed.person();
  await page.goto(link);
  const section = page.getByRole('region', { name: 'With your email address' });
  await section.getByRole('status').filter({ hasText: `Choose the password of the account for ${email}` }).waitFor();
  t.is(await section.getByLabel('Confirmation code').inputValue(), mailedCode(mail.text));
  const shown = new URL(page.url());
  t.false(shown.searchParams.has('code'), 'the code left the address bar');
  t.is(shown.searchParams.get('email'), email);
  t.is(await page.getByRole('region', { name: 'With a password' }).count(), 0, 'only the step the link is for');

  t.deepEqual(await checkAtBothWidths(page, 'signup-email-link'), []);

  await section.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await section.getByLabel('Repeat the password').fill(PASSWORD);
  await section.getByRole('button', { name: 'Create the account' }).click();
  await page.getByRole('banner').getByRole('link', { name: username }).click();
  await page.getByRole('heading', { name: 'Your account' }).waitFor();
  await page.getByRole('region', { name: 'Profile' }).getByText(`Email: ${email}`).waitFor();
  t.deepEqual(problems, []);
});

test.serial('password reset: the links from the mails ("already registered", then the reset) lead to a new password, which then signs in', async (t) => {
  const username = uniqueName('relink');
  const email = emailOf(username);
  t.is((await bed.call('POST', '/api/auth/email/signup/start', { email, username })).status, 202);
  const signupMail = await smtp.waitForMail(email, (received) => received.subject.startsWith('Your sign-up code'));
  const created = await bed.call<{ accessToken: string }>('POST', '/api/auth/email/signup/confirm', { email, code: mailedCode(signupMail.text), password: PASSWORD }, undefined, { 'x-svc-client': 'native' });
  t.is(created.status, 201);

  // Signing up again with the address sends the "already registered" mail, whose link starts a reset for it.
  t.is((await bed.call('POST', '/api/auth/email/signup/start', { email, username: uniqueName('again') })).status, 202);
  const already = await smtp.waitForMail(email, (received) => received.subject === 'You already have an account');
  const { page, problems } = await bed.person();
  await page.goto(mailedLink(already.text));
  const reset = page.getByRole('region', { name: 'Reset your password' });
  await reset.getByRole('button', { name: 'Send the code' }).waitFor();
  t.is(await reset.getByLabel('Email address').inputValue(), email);
  t.is(await page.getByRole('alert').count(), 0, 'a link without a code is not a damaged one');
  await reset.getByRole('button', { name: 'Send the code' }).click();
  await reset.getByRole('status').filter({ hasText: `If ${email} belongs to an account, a code is on its way` }).waitFor();

  const mail = await smtp.waitForMail(email, (received) => received.subject.startsWith('Your password reset code'));
  const link = mailedLink(mail.text);
  t.is(new URL(link).pathname, '/auth/reset');
  await page.goto(link);
  await reset.getByRole('status').filter({ hasText: `Choose a new password for the account of ${email}` }).waitFor();
  t.is(await reset.getByLabel('Code from the email').inputValue(), mailedCode(mail.text));
  t.false(new URL(page.url()).searchParams.has('code'), 'the code left the address bar');

  t.deepEqual(await checkAtBothWidths(page, 'password-reset-link'), []);

  await finishReset(page, reset, username);
  t.is((await bed.call('GET', '/api/me', undefined, created.body.accessToken)).status, 401, 'the session from before the reset is signed out');
  t.deepEqual(problems, []);
});

test.serial('a damaged email link says so and shows the start of its flow', async (t) => {
  const { page, problems } = await bed.person();
  const email = emailOf(uniqueName('broken'));

  await page.goto(`/auth/confirm-email?email=${encodeURIComponent(email)}&code=1234`);
  await page.getByRole('alert').filter({ hasText: 'This link is incomplete or damaged: its code is not the eight digits from the email.' }).waitFor();
  const signup = page.getByRole('region', { name: 'With your email address' });
  await signup.getByRole('button', { name: 'Send the confirmation code' }).waitFor();
  t.is(await signup.getByLabel('Email address').inputValue(), email);
  await page.getByRole('region', { name: 'With a password' }).waitFor();

  await page.goto('/auth/confirm-email');
  await page.getByRole('alert').filter({ hasText: 'it has no email address and it has no confirmation code' }).waitFor();
  await signup.getByRole('button', { name: 'Send the confirmation code' }).waitFor();
  t.is(await signup.getByLabel('Email address').inputValue(), '');

  await page.goto('/auth/reset?email=not-an-address&code=12345678');
  await page.getByRole('alert').filter({ hasText: 'This link is incomplete or damaged: its email address is not valid.' }).waitFor();
  const reset = page.getByRole('region', { name: 'Reset your password' });
  await reset.getByRole('button', { name: 'Send the code' }).waitFor();
  t.is(await reset.getByLabel('Email address').inputValue(), '');
  t.deepEqual(problems, []);
});

test.serial('password change on the account page: other sessions end, the new password signs in, the old one is refused', async (t) => {
  const { page, problems } = await bed.person();
  const username = uniqueName('chg');
  await signUpWithPassword(page, username, PASSWORD);
  await page.getByRole('banner').getByRole('link', { name: username }).waitFor();
  const elsewhere = await bed.person();
  await signInWithPassword(elsewhere.page, username, PASSWORD);
  await elsewhere.page.getByRole('banner').getByRole('link', { name: username }).waitFor();

  await page.goto('/account');
  const section = page.getByRole('region', { name: 'Change the password' });
  await section.getByLabel('New password').fill(NEW_PASSWORD);
  await section.getByLabel('Repeat the password').fill(NEW_PASSWORD);
  await section.getByRole('button', { name: 'Change the password' }).click();
  await section.getByText('Password changed. 1 other session was signed out.').waitFor();
  await elsewhere.page.reload();
  await elsewhere.page.getByRole('banner').getByRole('link', { name: 'Sign in' }).waitFor();

  await signOut(page);
  await signInWithPassword(page, username, PASSWORD);
  const refused = page.getByRole('region', { name: 'With your password' }).getByRole('alert');
  await refused.waitFor();
  t.regex((await refused.textContent()) ?? '', /invalid username or password/i);
  await signInWithPassword(page, username, NEW_PASSWORD);
  await page.getByRole('banner').getByRole('link', { name: username }).waitFor();
  t.deepEqual([...problems, ...elsewhere.problems], []);
});

test.serial('passkeys on the account page: an added one signs in, a removed one is refused', async (t) => {
  const member = await bed.signUp('pk');
  const person = await bed.person();
  const { page, problems } = person;
  await virtualAuthenticator(person);
  await signInPage(page, member.username);
  await page.goto('/account');
  const section = page.getByRole('region', { name: 'Passkeys' });
  await section.getByText('No passkeys yet.').waitFor();
  await section.getByLabel('Name of the new passkey (optional)').fill('Laptop');
  await section.getByRole('button', { name: 'Add a passkey' }).click();
  await section.getByRole('listitem').getByText('Laptop', { exact: true }).waitFor();

  await signOut(page);
  await page.goto('/signin?next=%2Faccount');
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await page.getByRole('heading', { name: 'Your account' }).waitFor();
  t.true(await page.getByRole('banner').getByRole('link', { name: member.username }).isVisible());

  await section.getByRole('button', { name: 'Remove the passkey Laptop' }).click();
  await section.getByText('No passkeys yet.').waitFor();
  await signOut(page);
  await page.goto('/signin');
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  const refused = page.getByRole('alert').filter({ hasText: 'this passkey is not registered on this server' });
  await refused.waitFor();
  t.is(new URL(page.url()).pathname, '/signin');
  t.deepEqual(problems, []);
});
