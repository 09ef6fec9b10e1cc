/**
 * Access tokens: what verifies and what does not. Every request and socket is let in by
 * `AccessTokens.verify`, so each way to forge, replay or bend a token is tried here, with tokens
 * made by hand (HMAC over the header and payload) rather than by the code under test.
 */
import test from 'ava';
import { createHash, createHmac } from 'node:crypto';
import { AccessTokens, AUDIENCE, ISSUER } from '../../accounts/sessions/access-tokens.js';

const SECRET = 'the current secret, thirty-two characters or more';
const OLD_SECRET = 'the secret before the rotation, also long enough';
const SID = '7c9e6679-7425-40de-944b-e07fc1f90ae7';

const b64 = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');
const kidOf = (secret: string): string => createHash('sha256').update(secret).digest('base64url').slice(0, 12);

function forge(options: { header?: Record<string, unknown>; payload?: Record<string, unknown>; secret?: string; alg?: string } = {}): string {
  const secret = options.secret ?? SECRET;
  const now = Math.floor(Date.now() / 1000);
  const header = { alg: options.alg ?? 'HS256', typ: 'at+jwt', kid: kidOf(secret), ...options.header };
  const payload = { sub: 'user-1', sid: SID, iss: ISSUER, aud: AUDIENCE, iat: now, exp: now + 600, ...options.payload };
  const input = `${b64(header)}.${b64(payload)}`;
  const mac = options.alg === 'none' ? '' : createHmac(options.alg === 'HS512' ? 'sha512' : 'sha256', secret).update(input).digest('base64url');
  return `${input}.${mac}`;
}

const tokens = new AccessTokens({ current: SECRET, previous: [OLD_SECRET] }, 900);

test('a token it signed verifies, with its claims, for its lifetime', async (t) => {
  const token = await tokens.sign({ sub: 'guest:abc', sid: SID, guest: true });
  t.deepEqual(await tokens.verify(token), { sub: 'guest:abc', sid: SID, guest: true });
  const [header, payload] = token.split('.').slice(0, 2).map((part) => JSON.parse(Buffer.from(part, 'base64url').toString()) as Record<string, unknown>);
  t.like(header, { alg: 'HS256', typ: 'at+jwt', kid: kidOf(SECRET) });
  t.is((payload!.exp as number) - (payload!.iat as number), 900);
  t.deepEqual(await tokens.verify(await tokens.sign({ sub: 'user-1', sid: SID })), { sub: 'user-1', sid: SID });
});

test('a token made elsewhere with the same secret and claims verifies (tokens issued before an upgrade)', async (t) => {
  t.deepEqual(await tokens.verify(forge()), { sub: 'user-1', sid: SID });
});

test('after a rotation, tokens of the previous secret verify and tokens of unknown secrets do not', async (t) => {
  t.deepEqual(await tokens.verify(forge({ secret: OLD_SECRET })), { sub: 'user-1', sid: SID });
  t.is(await tokens.verify(forge({ secret: 'a secret nobody configured, long enough too' })), undefined);
  // The right key id with another secret's signature.
  t.is(await tokens.verify(forge({ secret: 'a secret nobody configured, long enough too', header: { kid: kidOf(SECRET) } })), undefined);
  t.is(await tokens.verify(forge({ header: { kid: undefined } })), undefined);
  const rotated = new AccessTokens({ current: OLD_SECRET, previous: [] }, 900);
  t.is(await rotated.verify(forge()), undefined, 'a secret dropped from the list no longer verifies');
});

test('expired, not for svc, of another type, another algorithm, unsigned or altered: refused', async (t) => {
  const past = Math.floor(Date.now() / 1000) - 60;
  const refused: Record<string, string> = {
    expired: forge({ payload: { exp: past } }),
    'no expiry': forge({ payload: { exp: undefined } }),
    'another issuer': forge({ payload: { iss: 'someone-else' } }),
    'another audience': forge({ payload: { aud: 'another-api' } }),
    'an id token': forge({ header: { typ: 'JWT' } }),
    HS512: forge({ alg: 'HS512' }),
    'alg none': forge({ alg: 'none' }),
    'no session': forge({ payload: { sid: undefined } }),
    'no subject': forge({ payload: { sub: undefined } }),
    'a numeric session': forge({ payload: { sid: 42 } }),
  };
  for (const [what, token] of Object.entries(refused)) t.is(await tokens.verify(token), undefined, what);

  const [header, , mac] = forge().split('.');
  const altered = `${header}.${b64({ sub: 'admin', sid: SID, iss: ISSUER, aud: AUDIENCE, exp: Math.floor(Date.now() / 1000) + 600 })}.${mac}`;
  t.is(await tokens.verify(altered), undefined, 'payload swapped under a valid signature');
  for (const garbage of ['', 'a.b', 'a.b.c', 'not a token at all', `${forge()}x`]) t.is(await tokens.verify(garbage), undefined, garbage);
});
