/**
 * The first hour's addresses and accounts (issue 26): the room works at the URL exactly as
 * `npm run dev` prints it (http://127.0.0.1:<port>) and at http://localhost:<port>, with chat
 * between the two; a root made by `svc user create-root` signs in with the page's one Sign in
 * button; signing in from a room's prompt comes back to the room.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import test from 'ava';
import type { Page } from 'playwright-core';
import { BED_PASSWORD } from '../../gateways/bed.js';
import { childEnv, svcMain } from '../../harness/svc-process.js';
import { signInPage, startWebBed, uniqueName, waitForPage, type Person, type WebBed } from './browser.js';

let bed: WebBed;
test.before(async () => {
  bed = await startWebBed('web_origin');
});
test.after.always(async () => {
  await bed?.close();
});

const ROOT_PASSWORD = 'the first administrator 42';

/** `svc user create-root` against the bed's management endpoint, the password piped in as a script would. */
function createRoot(username: string): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [svcMain, 'user', 'create-root', '--username', username, '--password-stdin', '--allow-additional'], {
      env: childEnv({ SVC_DATA_DIR: bed.config.data_dir }),
      stdio: ['pipe', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
    child.stdin.end(`${ROOT_PASSWORD}\n`);
  });
}

async function signInWithTheButton(page: Page, username: string, password: string): Promise<void> {
  const section = page.getByRole('region', { name: 'With your password' });
  await section.getByLabel('Username').fill(username);
  await section.getByLabel('Password').fill(password);
  await section.getByRole('button', { name: 'Sign in' }).click();
}

async function signedInPerson(at: 'localhost' | '127.0.0.1'): Promise<{ person: Person; username: string }> {
  const person = await bed.person({ at });
  const { username } = await bed.signUp('viewer');
  await signInPage(person.page, username);
  await person.page.reload();
  await person.page.getByRole('link', { name: username }).waitFor();
  return { person, username };
}

test('the room connects and chat works at http://127.0.0.1:<port> (as npm run dev prints it) and at http://localhost:<port>', async (t) => {
  const { person: host } = await signedInPerson('127.0.0.1');
  const { person: friend } = await signedInPerson('localhost');
  t.regex(host.page.url(), /^http:\/\/127\.0\.0\.1:\d+\//);

  const name = `First hour ${randomUUID().slice(0, 6)}`;
  await host.page.goto('/rooms/new');
  await host.page.getByLabel('Room name').fill(name);
  await host.page.getByRole('button', { name: 'Create room' }).click();
  await host.page.getByRole('heading', { level: 1, name }).waitFor();
  const link = await host.page.getByLabel('Join link').inputValue();

  await friend.page.goto(new URL(link).pathname);
  await friend.page.getByRole('button', { name: 'Join room' }).click();
  for (const person of [host, friend]) {
    await person.page.getByRole('tab', { name: 'Chat' }).click();
    // The live connection is open: no notice of a lost or refused connection.
    await person.page.getByText('Connected to the room.').waitFor({ state: 'attached' });
  }
  const hello = `hello from 127.0.0.1 ${randomUUID().slice(0, 6)}`;
  await host.page.getByLabel('Message', { exact: true }).fill(hello);
  await host.page.getByRole('button', { name: 'Send' }).click();
  await friend.page.getByRole('list', { name: 'Messages' }).getByText(hello).waitFor();
  const reply = `hello from localhost ${randomUUID().slice(0, 6)}`;
  await friend.page.getByLabel('Message', { exact: true }).fill(reply);
  await friend.page.getByRole('button', { name: 'Send' }).click();
  await host.page.getByRole('list', { name: 'Messages' }).getByText(reply).waitFor();
  t.deepEqual([...host.problems, ...friend.problems], []);
});

test('a root made by svc user create-root signs in with the Sign in button, which is the only one', async (t) => {
  const username = uniqueName('root');
  const created = await createRoot(username);
  t.is(created.code, 0, created.stderr);
  const { page, problems } = await bed.person({ at: '127.0.0.1' });
  await page.goto('/signin');
  const section = page.getByRole('region', { name: 'With your password' });
  t.is(await section.getByRole('button').filter({ hasText: /OPAQUE|directly/ }).count(), 0);
  t.false(/OPAQUE/.test(await page.locator('main').innerText()));
  await signInWithTheButton(page, username, ROOT_PASSWORD);
  await page.getByRole('link', { name: username }).waitFor();
  await page.getByRole('link', { name: 'Admin' }).waitFor();
  t.deepEqual(problems, []);
});

test("signing in from a room's prompt comes back to the room", async (t) => {
  const { person: owner } = await signedInPerson('localhost');
  const name = `Come back ${randomUUID().slice(0, 6)}`;
  await owner.page.goto('/rooms/new');
  await owner.page.getByLabel('Room name').fill(name);
  await owner.page.getByRole('button', { name: 'Create room' }).click();
  await owner.page.getByRole('heading', { level: 1, name }).waitFor();
  const roomPath = new URL(await owner.page.getByLabel('Join link').inputValue()).pathname;

  const { username } = await bed.signUp('visitor');
  const { page, problems } = await bed.person();
  await page.goto(roomPath);
  await page.locator('.sign-in-prompt').getByRole('link', { name: 'Sign in' }).click();
  await page.waitForURL(/\/signin\?next=/);
  await signInWithTheButton(page, username, BED_PASSWORD);
  await page.waitForURL((url) => url.pathname === roomPath);
  await page.getByRole('heading', { level: 1, name }).waitFor();

  // The header's Sign in link comes back as well.
  const { username: second } = await bed.signUp('visitor');
  const other = await bed.person();
  await other.page.goto(roomPath);
  await other.page.getByRole('banner').getByRole('link', { name: 'Sign in' }).click();
  await signInWithTheButton(other.page, second, BED_PASSWORD);
  await other.page.waitForURL((url) => url.pathname === roomPath);
  t.deepEqual([...problems, ...other.problems], []);
});

test('a page whose address the service does not serve is told why the room cannot connect, and the page keeps trying', async (t) => {
  // A proxy the bed trusts says the browser asked for another host: the page's origin is then
  // neither that address nor a configured one (the bed's is localhost), as behind a proxy that
  // rewrites Host.
  const person = await bed.person({ at: '127.0.0.1', headers: { 'x-forwarded-host': 'watch.elsewhere.example' } });
  const owner = await signedInPerson('localhost');
  const name = `Refused ${randomUUID().slice(0, 6)}`;
  await owner.person.page.goto('/rooms/new');
  await owner.person.page.getByLabel('Room name').fill(name);
  await owner.person.page.getByRole('button', { name: 'Create room' }).click();
  await owner.person.page.getByRole('heading', { level: 1, name }).waitFor();
  const roomPath = new URL(await owner.person.page.getByLabel('Join link').inputValue()).pathname;

  const { username } = await bed.signUp('outsider');
  await signInPage(person.page, username);
  await person.page.goto(roomPath);
  await person.page.getByRole('button', { name: 'Join room' }).click();
  const notice = person.page.getByRole('alert').filter({ hasText: 'is not allowed to open the room’s live connection' });
  await notice.waitFor().catch(async (error: unknown) => {
    throw new Error(`no notice; the page shows: ${await person.page.locator('main').innerText()} ${person.problems.join('; ')}`, { cause: error });
  });
  t.regex(await notice.innerText(), /add http:\/\/127\.0\.0\.1:\d+ to server\.cors_allowed_origins/);
  // Backing off: the wait grows, and the notice counts down to the next try.
  const waiting = person.page.getByRole('alert').filter({ hasText: /Trying again in \d+ seconds? \(attempt (\d+)\)/ });
  await waiting.waitFor();
  const attempt = Number(/\(attempt (\d+)\)/.exec(await waiting.innerText())?.[1]);
  await waiting.getByRole('button', { name: 'Try now' }).click();
  // A later attempt: the one Try now started, or, when the backoff timer fired between reading
  // the notice and the click, the one after it (waiting for exactly attempt + 1 missed that).
  await waitForPage(
    person.page,
    `[...document.querySelectorAll('[role=alert]')].some((el) => Number((/\\(attempt (\\d+)\\)/.exec(el.textContent ?? '') ?? [])[1] ?? 0) > ${attempt})`,
    30_000,
  );
  t.pass();
});
