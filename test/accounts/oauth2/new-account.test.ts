/** Usernames and review keys derived from provider identities (no stack needed). */
import test from 'ava';
import { usernameBase, usernameCandidates, SUFFIXED_ATTEMPTS } from '../../../accounts/methods/oauth2/new-account.js';
import { externalKey } from '../../../accounts/methods/oauth2/oauth2-method.js';
import { oidcProfile } from '../../../accounts/methods/oauth2/oidc.js';
import { parseUsername } from '../../../accounts/username.js';

test('the provider handle, reduced to the username rule, is the first choice', (t) => {
  t.is(usernameBase({ subject: 's', username: 'Ålice Smith!' }), 'Ålice_Smith');
  t.is(usernameBase({ subject: 's', username: '__.bob' }), 'bob');
  t.is(usernameBase({ subject: 's', username: 'ｆｕｌｌ' }), 'full');
  const long = usernameBase({ subject: 's', username: 'a'.repeat(60) });
  t.is(long.length, 27);
});

test('unusable handles fall back to the email local part, the name, then "user"', (t) => {
  t.is(usernameBase({ subject: 's', username: 'x', email: 'jan.k+tv@example.com' }), 'jan.k_tv');
  t.is(usernameBase({ subject: 's', username: '!!', name: 'Zoë Ng' }), 'Zoë_Ng');
  t.is(usernameBase({ subject: 's', name: '李' }), 'user');
  t.is(usernameBase({ subject: 's' }), 'user');
});

test('candidates are the base, then suffixed variants, all valid usernames', (t) => {
  const all = [...usernameCandidates('b'.repeat(27))];
  t.is(all.length, 1 + SUFFIXED_ATTEMPTS);
  t.is(all[0]!.name, 'b'.repeat(27));
  for (const candidate of all.slice(1)) {
    t.regex(candidate.name, /^b{27}-\d{4}$/);
    t.notThrows(() => parseUsername(candidate.name));
  }
});

test('OIDC claims: email only when verified; the subject is required and printable', (t) => {
  t.deepEqual(oidcProfile({ sub: 'abc', preferred_username: 'al', name: 'Al', email: 'al@example.com', email_verified: true }), {
    subject: 'abc',
    username: 'al',
    name: 'Al',
    email: 'al@example.com',
  });
  t.deepEqual(oidcProfile({ sub: 'abc', email: 'al@example.com', email_verified: 'true' }), { subject: 'abc' });
  t.throws(() => oidcProfile({ sub: '' }), { message: /usable subject/ });
  t.throws(() => oidcProfile({ sub: 'a\nb' }), { message: /usable subject/ });
  t.throws(() => oidcProfile({ sub: 'x'.repeat(256) }), { message: /usable subject/ });
});

test('review keys stay within the review id limit for the longest subjects', (t) => {
  t.is(externalKey({ instanceName: 'corp', subject: 'alice' }), 'corp:alice');
  const long = externalKey({ instanceName: 'i'.repeat(64), subject: 's'.repeat(255) });
  t.true(long.length <= 256);
  t.regex(long, /^i{64}:sha256:[A-Za-z0-9_-]{43}$/);
});
