/**
 * The admin settings page as an operator uses it, in Chromium: each setting by its human name
 * with a sentence, what it accepts and its key; structured values edited with forms (ICE
 * servers and OAuth2 providers as rows of fields, guest permissions as checkboxes of only what
 * a guest can ever have), the value saved being what was typed, and a hidden credential kept
 * when the form is saved again without retyping it. axe at both widths, light and dark.
 * Serial: the tests write server-wide settings.
 */
import test from 'ava';
import type { Locator, Page } from 'playwright-core';
import { GUEST_PERMISSION_CEILING } from '../../../contracts/permissions/defaults.js';
import type { Member } from '../../gateways/bed.js';
import { checkAtBothWidths, signInPage, startWebBed, type WebBed } from './browser.js';

let bed: WebBed;
let root: Member;
test.before(async () => {
  bed = await startWebBed('web_admin_settings');
  root = await bed.admin('root', 'root');
});
test.after.always(async () => {
  await bed?.close();
});

async function settingsPage(): Promise<{ page: Page; problems: string[] }> {
  const person = await bed.person();
  await signInPage(person.page, root.username);
  await person.page.goto('/admin/settings');
  await person.page.getByRole('heading', { name: 'Server settings', level: 1 }).waitFor();
  // The heading shows before the settings arrive: wait for them, or a count could read an empty page.
  await person.page.getByRole('group', { name: 'What guests can do' }).getByRole('checkbox').first().waitFor();
  return person;
}

/** The text of the elements that describe a control (its hint and error), as a screen reader reads them. */
async function description(control: Locator): Promise<string> {
  const ids = (await control.getAttribute('aria-describedby')) ?? '';
  const page = control.page();
  const parts = await Promise.all(ids.split(' ').filter(Boolean).map((id) => page.locator(`[id="${id}"]`).innerText()));
  return parts.join(' ');
}

async function saved(page: Page, group: string): Promise<void> {
  await page.getByRole('button', { name: `Save ${group}` }).click();
  await page.getByRole('status').filter({ hasText: `Saved ${group}:` }).waitFor();
}

test.serial('a setting shows its human name and a sentence, what it accepts in plain words, and its key', async (t) => {
  const { page, problems } = await settingsPage();
  await page.getByRole('heading', { name: 'Server limits', level: 2 }).waitFor();
  const rooms = page.getByLabel('Rooms per person', { exact: true });
  const said = await description(rooms);
  t.true(said.includes('How many rooms one person can own at the same time.'), said);
  t.true(said.includes('A whole number from 1 to 1000.'), said);
  t.true(said.includes('Key: server.maxRoomsPerUser'), said);
  t.false(said.includes('..='), said);
  const retention = await description(page.getByLabel('Chat messages kept per room', { exact: true }));
  t.true(retention.includes('from 0 to 100000; 0 means no limit'), retention);
  t.is(await page.getByRole('combobox', { name: 'Room passwords' }).inputValue(), 'optional');
  t.is(await page.locator('textarea').count(), 0, 'no JSON textareas');
  t.deepEqual(problems, []);
});

test.serial('guest default permissions are offered as checkboxes, only those a guest can ever have', async (t) => {
  const before = bed.service.settings.get('permissions.guestDefaultPermissions');
  const { page, problems } = await settingsPage();
  const guests = page.getByRole('group', { name: 'What guests can do' });
  const boxes = guests.getByRole('checkbox');
  t.is(await boxes.count(), GUEST_PERMISSION_CEILING.length);
  const labels = await Promise.all((await boxes.all()).map(async (box) => ((await box.locator('xpath=ancestor::label[1]').textContent()) ?? '').trim()));
  t.deepEqual(labels, ['See who is here', 'Read the chat', 'Join voice']);
  // The boxes show the value in force, not empty boxes.
  for (const [index, permission] of GUEST_PERMISSION_CEILING.entries()) {
    t.is(await boxes.nth(index).isChecked(), before.includes(permission), permission);
  }
  const members = page.getByRole('group', { name: 'What room members can do' });
  t.true((await members.getByRole('checkbox').count()) > GUEST_PERMISSION_CEILING.length);
  // A permission set is a set: the default in another order is still the default.
  t.is(await members.getByRole('button', { name: /^Reset to default/ }).count(), 0);

  const calls = guests.getByLabel('Join voice');
  const wanted = !(await calls.isChecked());
  await calls.setChecked(wanted);
  await saved(page, 'Room permissions');
  const after = bed.service.settings.get('permissions.guestDefaultPermissions');
  t.is(after.includes('use_webrtc'), wanted);
  t.deepEqual(after.filter((permission) => permission !== 'use_webrtc'), before.filter((permission) => permission !== 'use_webrtc'));
  await bed.set('permissions', { guestDefaultPermissions: before });
  t.deepEqual(problems, []);
});

test.serial('a root edits ICE servers with rows of fields: what is saved is what they typed, and a hidden credential is kept', async (t) => {
  await bed.set('webrtc', { externalIceServers: [{ urls: ['stun:stun.example.com:3478'] }] });
  try {
    const { page, problems } = await settingsPage();
    const ice = page.getByRole('group', { name: 'Servers that connect calls (STUN/TURN)' });
    await ice.getByRole('button', { name: 'Add a server' }).click();
    const second = ice.getByRole('group', { name: 'Server 2' });
    await second.getByLabel('Addresses').fill('turn:turn.example.com:3478 turns:turn.example.com:5349');
    await second.getByLabel('Username').fill('watcher');
    await second.getByLabel('Credential').fill('s3cret-turn');
    await saved(page, 'Voice and video calls');
    const typed = [
      { urls: ['stun:stun.example.com:3478'] },
      { urls: ['turn:turn.example.com:3478', 'turns:turn.example.com:5349'], username: 'watcher', credential: 's3cret-turn' },
    ];
    t.deepEqual(bed.service.settings.get('webrtc.externalIceServers'), typed);

    // The page now shows the credential hidden; changing another field keeps it.
    await page.reload();
    const reloaded = page.getByRole('group', { name: 'Servers that connect calls (STUN/TURN)' });
    const credential = reloaded.getByRole('group', { name: 'Server 2' }).getByLabel('Credential');
    t.is(await credential.inputValue(), '');
    t.true((await description(credential)).includes('Saved and hidden'));
    t.false((await page.content()).includes('s3cret-turn'));
    await reloaded.getByRole('button', { name: 'Remove server 1' }).click();
    await reloaded.getByRole('group', { name: 'Server 1' }).getByLabel('Username').fill('watcher2');
    await page.getByRole('button', { name: 'Save Voice and video calls' }).click();
    // A different username is another account at the TURN server: its hidden credential is not kept.
    await reloaded.getByText(/^Server 1: credential is hidden/).waitFor();
    t.deepEqual(bed.service.settings.get('webrtc.externalIceServers'), typed, 'nothing written');
    await reloaded.getByRole('group', { name: 'Server 1' }).getByLabel('Username').fill('watcher');
    await saved(page, 'Voice and video calls');
    t.deepEqual(bed.service.settings.get('webrtc.externalIceServers'), [typed[1]]);
    t.deepEqual(problems, []);
  } finally {
    await bed.set('webrtc', { externalIceServers: [] });
  }
});

test.serial('a root adds an OpenID Connect provider with fields; its secret stays hidden and kept', async (t) => {
  try {
    const { page, problems } = await settingsPage();
    const providers = page.getByRole('group', { name: 'Sign in with GitHub or another provider' });
    await providers.getByRole('button', { name: 'Add a provider' }).click();
    const first = providers.getByRole('group', { name: /^Provider 1/ });
    await first.getByLabel('Kind').selectOption('oidc');
    await first.getByLabel('Name', { exact: true }).fill('acme');
    await first.getByLabel('Client ID').fill('acme-client');
    await first.getByLabel('Client secret').fill('acme-secret');
    await first.getByLabel('Issuer').fill('https://id.acme.example');
    await first.getByLabel('Return address').fill(`${bed.origin}/oauth2/callback/acme`);
    await first.getByLabel('New people can sign up with it').check();
    await saved(page, 'Sign-in providers');
    const typed = {
      instanceName: 'acme',
      enableSignup: true,
      signupNeedReview: false,
      oidc: { clientId: 'acme-client', clientSecret: 'acme-secret', issuer: 'https://id.acme.example', redirectUrl: `${bed.origin}/oauth2/callback/acme` },
    };
    t.deepEqual(bed.service.settings.get('oauth2.providers'), [typed]);

    await page.reload();
    const again = page.getByRole('group', { name: 'Sign in with GitHub or another provider' }).getByRole('group', { name: 'Provider 1: acme' });
    t.is(await again.getByLabel('Client secret').inputValue(), '');
    await again.getByLabel('Sign-ups with it need approval').check();
    await saved(page, 'Sign-in providers');
    t.deepEqual(bed.service.settings.get('oauth2.providers'), [{ ...typed, signupNeedReview: true }]);
    t.deepEqual(problems, []);
  } finally {
    await bed.set('oauth2', { providers: [] });
  }
});

test.serial('the settings page passes axe and fits a phone, light and dark', async (t) => {
  const { page, problems } = await settingsPage();
  await page.getByRole('heading', { name: 'Voice and video calls', level: 2 }).waitFor();
  t.deepEqual(await checkAtBothWidths(page, 'admin-settings-forms'), []);
  await page.emulateMedia({ colorScheme: 'dark' });
  t.deepEqual(await checkAtBothWidths(page, 'admin-settings-forms-dark'), []);
  t.deepEqual(problems, []);
});
