/**
 * The web client in Simplified Chinese and English (docs/2026-11-27-languages.md): a browser whose
 * language is Chinese gets every page in Chinese, the room with all its panels included, with
 * dates in Chinese form; the header's switch turns the page English without a reload and the
 * choice outlives one. Each page is scanned for English left untranslated: every text node
 * (screen-reader-only text and closed panels included), every label a person reads or hears
 * (aria-label, title, placeholder, alt) and the document title. Latin words other than the kept
 * terms (web/src/i18n/catalogue/terms.ts), the people's names and addresses fail the test.
 * Screenshots of the room in both languages are test-artifacts/screenshots/room-{zh-CN,en}-*.png.
 */
import test from 'ava';
import type { Page } from 'playwright-core';
import { screenshot, signInPage, startWebBed, type Person, type WebBed } from './browser.js';
import { makeTestVideo, serveMedia, type MediaServer } from './media.js';
import { KEPT_TERMS } from '../../../web/src/i18n/catalogue/terms.js';
import { makeRoot } from './admin-helpers.js';
import type { Member } from '../../gateways/bed.js';

const STEP_MS = 20_000;

let bed: WebBed;
let media: MediaServer;
let file: string;
test.before(async () => {
  const clip = await makeTestVideo({ seconds: 10, size: '320x180' });
  file = clip.file;
  media = await serveMedia(clip.dir);
  bed = await startWebBed('web_languages');
});
test.after.always(async () => {
  await Promise.allSettled([bed?.close(), media?.close()]);
});

/** Every string the page shows or speaks, as [where, text]. */
const PAGE_STRINGS = `(() => {
  const out = [];
  // Code, data marked as not to translate (a device's user agent), and text marked as being in
  // another language (the switch names each language in itself) are not the page's words.
  const skip = (el) => el.closest('code, kbd, samp, script, style, noscript, [translate="no"], body [lang]');
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    const text = node.textContent.trim();
    if (el && text && !skip(el)) out.push([el.tagName.toLowerCase() + (el.className ? '.' + String(el.className).split(' ')[0] : ''), text]);
  }
  for (const el of document.body.querySelectorAll('[aria-label], [title], [placeholder], [alt], [aria-description]')) {
    if (skip(el)) continue;
    for (const name of ['aria-label', 'title', 'placeholder', 'alt', 'aria-description']) {
      const value = el.getAttribute(name);
      if (value) out.push([el.tagName.toLowerCase() + '[' + name + ']', value]);
    }
  }
  out.push(['title', document.title]);
  return out;
})()`;

const kept = new Set(KEPT_TERMS.map((term) => term.toLowerCase()));

/** The English words on the page: Latin words that are not kept terms, names, ids or addresses. */
async function englishOn(page: Page, where: string, names: string[]): Promise<string[]> {
  const strings = await page.evaluate<[string, string][]>(PAGE_STRINGS);
  const allowed = new Set(names.map((name) => name.toLowerCase()));
  const found: string[] = [];
  for (const [element, text] of strings) {
    const words = text
      .replace(/\b[a-z][a-z0-9+.-]*:\/\/\S+|\S+@\S+/gi, ' ') // addresses (a share link, a media URL, an email)
      .replace(/\b[0-9a-f]{1,4}(?::[0-9a-f]{0,4}){2,7}\b/gi, ' ') // IPv6 addresses (a session's, whose groups can read as a word: "fdac")
      .split(/[^A-Za-z0-9_'.-]+/)
      .map((token) => token.replace(/^[.'-]+|[.'-]+$/g, ''))
      // Host and file names (stun.example.com, clip.webm) are names, not words.
      .filter((token) => /[A-Za-z]{2}/.test(token) && !/\d/.test(token) && !/^[\w-]+(\.[\w-]+)+$/.test(token))
      .filter((token) => !kept.has(token.toLowerCase()) && !allowed.has(token.toLowerCase()));
    if (words.length > 0) found.push(`${where} ${element}: "${text}" (${words.join(', ')})`);
  }
  return found;
}

/** Opens each of the room's tabs in turn (by id, whatever its label says) and scans the room after each. */
async function scanRoom(page: Page, where: string, names: string[]): Promise<string[]> {
  const found = new Set<string>();
  const tabs = await page.evaluate<string[]>(`[...document.querySelectorAll('[role="tab"]')].map((tab) => tab.id)`);
  for (const id of tabs) {
    await page.locator(`#${id}`).click();
    await page.locator(`#${id}[aria-selected="true"]`).waitFor({ timeout: STEP_MS });
    await page.waitForLoadState('networkidle');
    for (const line of await englishOn(page, `${where} (${id})`, names)) found.add(line);
  }
  return [...found];
}

/** What the listed reviews name (a room's name, a username). */
async function reviewSubjects(admin: Member): Promise<string[]> {
  const listed = await bed.call<{ reviews: { subject: string }[] }>('GET', '/api/admin/reviews?limit=1000', undefined, admin.token);
  return listed.body.reviews.map((review) => review.subject);
}

async function open(member: Member, path: string, options: { locale: string; viewport?: 'desktop' | 'phone' }): Promise<Person> {
  const person = await bed.person({ allowHosts: [media.host], locale: options.locale, viewport: options.viewport ?? 'desktop' });
  await signInPage(person.page, member.username);
  await person.page.goto(path);
  return person;
}

test.serial('a Chinese browser gets every page in Chinese, with Chinese dates; the switch turns it English and is remembered', async (t) => {
  const [alice, bob] = await Promise.all([bed.signUp('alice'), bed.signUp('bob')]);
  await makeRoot(bed, alice.userId);
  // People's names are data, and so are the device the test's API calls name (Node's fetch:
  // "node") and who changed a setting (the bed writes its settings as "test").
  const names = [alice.username, bob.username, 'node', 'test'];
  const created = await bed.call<{ room: { id: string } }>('POST', '/api/rooms', { name: '周五电影之夜' }, alice.token);
  const roomId = created.body.room.id;
  await bed.call('POST', `/api/rooms/${roomId}/join`, {}, bob.token);
  for (const title of ['第一集', '第二集']) await bed.call('POST', `/api/rooms/${roomId}/playlist`, { title, url: media.url(file) }, alice.token);
  await bed.call('POST', `/api/rooms/${roomId}/chat`, { text: '大家好，准备开始了' }, bob.token);
  await bed.call('POST', `/api/rooms/${roomId}/polls`, { question: '先看哪一部？', options: ['电影', '剧集'] }, alice.token);

  const a = await open(alice, `/rooms/${roomId}`, { locale: 'zh-CN' });
  const page = a.page;
  await page.locator('#tab-chat').waitFor({ timeout: STEP_MS });
  t.is(await page.locator('html').getAttribute('lang'), 'zh-CN');
  t.is(await page.locator('#tab-chat').innerText(), '聊天');

  const english: string[] = [];
  english.push(...(await scanRoom(page, 'room', names)));
  await page.locator('#tab-chat').click();
  await screenshot(page, 'room-zh-CN');
  for (const path of ['/', '/rooms', '/rooms/new', '/account', '/admin', '/admin/users', '/admin/rooms', '/admin/reviews', '/admin/settings']) {
    // The reviews come from Temporal, which the stack shares with other tests' services: the
    // rooms and usernames they name are other people's data.
    const reviewed = path === '/admin/reviews' ? await reviewSubjects(alice) : [];
    await page.goto(path);
    await page.locator('#page-title, h1').first().waitFor({ timeout: STEP_MS });
    await page.waitForLoadState('networkidle');
    if (path === '/admin/reviews') reviewed.push(...(await reviewSubjects(alice)));
    english.push(...(await englishOn(page, path, [...names, ...reviewed.flatMap((subject) => subject.split(/\s+/))])));
  }
  // Dates in the page's language: the account's sign-in sessions say when each was last used.
  await page.goto('/account');
  await page.getByText(/\d{4}年\d{1,2}月\d{1,2}日/).first().waitFor({ timeout: STEP_MS });

  // Signed out: the sign-in and sign-up pages, on a phone.
  const visitor = await bed.person({ locale: 'zh-CN', viewport: 'phone' });
  for (const path of ['/signin', '/signup', `/rooms/${roomId}`]) {
    await visitor.page.goto(path);
    await visitor.page.locator('h1').first().waitFor({ timeout: STEP_MS });
    await visitor.page.waitForLoadState('networkidle');
    english.push(...(await englishOn(visitor.page, `signed out ${path}`, names)));
  }

  // A member on a phone: the room as most people see it.
  const b = await open(bob, `/rooms/${roomId}`, { locale: 'zh-CN', viewport: 'phone' });
  await b.page.locator('#tab-chat').waitFor({ timeout: STEP_MS });
  english.push(...(await scanRoom(b.page, 'room as a member', names)));
  await b.page.locator('#tab-chat').click();
  await screenshot(b.page, 'room-zh-CN');
  t.deepEqual(english, [], 'English left on Chinese pages');

  // The switch: English at once (no reload: the room stays connected), and after a reload.
  await page.goto(`/rooms/${roomId}`);
  await page.locator('#tab-chat').waitFor({ timeout: STEP_MS });
  await page.getByLabel('语言').selectOption('en');
  await page.locator('#tab-chat', { hasText: 'Chat' }).waitFor({ timeout: STEP_MS });
  t.is(await page.locator('html').getAttribute('lang'), 'en');
  await screenshot(page, 'room-en');
  await page.reload();
  await page.locator('#tab-chat', { hasText: 'Chat' }).waitFor({ timeout: STEP_MS });
  await page.getByLabel('Language').selectOption('zh-CN');
  await page.locator('#tab-chat', { hasText: '聊天' }).waitFor({ timeout: STEP_MS });
  t.deepEqual([...a.problems, ...b.problems, ...visitor.problems], []);
});

test.serial('an English browser gets English, and a Traditional Chinese one too (the client has no Traditional catalogue)', async (t) => {
  const carol = await bed.signUp('carol');
  for (const locale of ['en-GB', 'zh-TW']) {
    const person = await open(carol, '/rooms', { locale });
    await person.page.getByRole('link', { name: 'Rooms', exact: true }).waitFor({ timeout: STEP_MS });
    t.is(await person.page.locator('html').getAttribute('lang'), 'en', locale);
    t.deepEqual(person.problems, []);
  }
});
