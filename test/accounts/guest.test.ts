import test from 'ava';
import { bearer, call, native, uniqueIp, startAccountsBed, type AccountsBed } from './fixtures.js';

let bed: AccountsBed;
test.before(async () => {
  bed = await startAccountsBed('accounts-guest');
});
test.after.always(async () => {
  await bed?.close();
});

const guest = (displayName: string) => call(`${bed.url}/api/auth/guest`, 'POST', { displayName }, { ...native, 'x-forwarded-for': uniqueIp() });

test.serial('a guest session identifies a guest, not a user', async (t) => {
  const answer = await guest('Visitor');
  t.is(answer.status, 200);
  const token = String(answer.body.accessToken);
  const me = await call(`${bed.url}/api/me`, 'GET', undefined, bearer(token));
  t.deepEqual(me.body, { guest: { id: `guest:${String(answer.body.sessionId)}`, displayName: 'Visitor' } });
  // Account endpoints are not for guests.
  const sessions = await call(`${bed.url}/api/auth/sessions`, 'GET', undefined, bearer(token));
  t.is(sessions.status, 403);
});

test.serial('guests are refused while user.enableGuest is off', async (t) => {
  await bed.set('user', { enableGuest: false });
  try {
    const answer = await guest('Visitor');
    t.is(answer.status, 403);
    t.regex(String(answer.body.message), /user\.enableGuest/);
  } finally {
    await bed.set('user', { enableGuest: true });
  }
});
