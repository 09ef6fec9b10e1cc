/**
 * The patterns the API schemas run on what clients send read it in linear time: a 60,000
 * character input the body limit lets through is judged in milliseconds, never in seconds (a
 * URL's path followed by white space and a control character took 3.5 s when the path and the
 * trailing white space could each take the spaces).
 */
import test from 'ava';
import { usernameInput } from '../../contracts/account-rules.js';
import { MediaInput, HTTP_URL } from '../../contracts/http/media-input.js';
import { SETTING_VALUES } from '../../contracts/http/setting-values.js';
import { labelText, trimmedText } from '../../contracts/text.js';

const N = 60_000;
/** Generous: the linear patterns take a few milliseconds; a quadratic one takes seconds. */
const BOUND_MS = 400;

function judged(t: import('ava').ExecutionContext, name: string, run: () => unknown): void {
  const started = performance.now();
  run();
  const took = performance.now() - started;
  t.true(took < BOUND_MS, `${name} took ${took.toFixed(0)} ms`);
}

test('URL, text, label, username and setting patterns are linear on long adversarial inputs', (t) => {
  usernameInput(); // its classes are computed once, on first use
  const chat = trimmedText({ lines: true, maxChars: 2000, totalChars: 4096 });
  const label = labelText({ maxChars: 256, totalChars: 512 });
  const item = (provider: string, url: string) => MediaInput.safeParse({ title: 'x', provider, url });
  judged(t, 'http URL: spaces then a control', () => HTTP_URL.test(`http://a/${' '.repeat(N)}\u0001`));
  judged(t, 'http URL: many labels', () => HTTP_URL.test(`http://${'a.'.repeat(N / 2)}!`));
  judged(t, 'alist URL', () => item('alist', `https://a.example/a?${' '.repeat(2000)}\u0001`));
  judged(t, 'local reference', () => item('local', `local:${'a'.repeat(64)}:1:${'%20'.repeat(600)}!`));
  judged(t, 'chat: spaces then a control', () => chat.safeParse(`x${' '.repeat(N)}\u0001`));
  judged(t, 'chat: CR LF runs', () => chat.safeParse(`x${'\r\n'.repeat(N / 2)}\r`));
  judged(t, 'label: invisible characters', () => label.safeParse(`${'\u200b'.repeat(N)}\u0001`));
  judged(t, 'username: spaces around', () => usernameInput().test(`${' '.repeat(N)}abc${' '.repeat(N)}!`));
  judged(t, 'email allowlist', () => SETTING_VALUES.email.whitelistDomains.safeParse(`${' a.b ,'.repeat(N / 6)}!`));
  judged(t, 'publish host', () => SETTING_VALUES.rtmp.customPublishHost.safeParse(`${'a.'.repeat(N / 2)}!`));
});
