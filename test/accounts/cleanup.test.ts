import test from 'ava';
import { issueCode, purgeCodes } from '../../accounts/email/codes.js';
import { call, native, uniqueIp, startAccountsBed, type AccountsBed } from './fixtures.js';

let bed: AccountsBed;
test.before(async () => {
  bed = await startAccountsBed('accounts-cleanup');
  await bed.set('user', { enableGuest: true });
});
test.after.always(async () => {
  await bed?.close();
});

const guestSession = async (): Promise<string> => {
  const answer = await call(`${bed.url}/api/auth/guest`, 'POST', { displayName: 'Visitor' }, { ...native, 'x-forwarded-for': uniqueIp() });
  return String(answer.body.sessionId);
};
const exists = async (table: string, id: string): Promise<boolean> => ((await bed.pool.query(`SELECT 1 FROM ${table} WHERE id = $1`, [id])).rowCount ?? 0) > 0;

test('the cleanup removes sessions ended over a day ago and old codes, and keeps the rest', async (t) => {
  const live = await guestSession();
  const revokedLongAgo = await guestSession();
  const expiredLongAgo = await guestSession();
  const revokedRecently = await guestSession();
  await bed.pool.query("UPDATE sessions SET revoked_at = now() - interval '2 days' WHERE id = $1", [revokedLongAgo]);
  await bed.pool.query("UPDATE sessions SET expires_at = now() - interval '2 days' WHERE id = $1", [expiredLongAgo]);
  await bed.accounts.sessions.revoke(revokedRecently, 'logout', 'logout');
  const oldCode = await issueCode(bed.pool, { purpose: 'reset', emailKey: 'old@example.org' });
  const freshCode = await issueCode(bed.pool, { purpose: 'reset', emailKey: 'fresh@example.org' });
  await bed.pool.query("UPDATE email_codes SET expires_at = now() - interval '2 days' WHERE id = $1", [oldCode.id]);

  t.true((await bed.accounts.sessions.purgeEnded()) >= 2);
  t.true(await purgeCodes(bed.pool) >= 1);

  t.true(await exists('sessions', live));
  t.true(await exists('sessions', revokedRecently));
  t.false(await exists('sessions', revokedLongAgo));
  t.false(await exists('sessions', expiredLongAgo));
  t.false(await exists('email_codes', oldCode.id));
  t.true(await exists('email_codes', freshCode.id));
});
