/**
 * Steps the admin page tests share: a browser signed in as an existing password account (the
 * sign-in page is another part of issue 11, so the session is seeded the way it would leave it:
 * the login call made from the page, so the httpOnly refresh cookie lands in the browser, and
 * the client's signed-in mark), and a root account.
 */
import type { Page } from 'playwright-core';
import type { GatewayBed } from '../../gateways/bed.js';
import { createPool } from '../../../store/pool.js';

/** What `bed.signUp()` registers every account with. */
export const BED_PASSWORD = 'correct horse battery staple';

export async function signInBrowser(page: Page, username: string, password = BED_PASSWORD): Promise<void> {
  await page.goto('/');
  const body = JSON.stringify({ username, password });
  const status = (await page.evaluate(
    `fetch('/api/auth/password/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: ${JSON.stringify(body)}, credentials: 'same-origin' })
      .then((response) => { if (response.ok) localStorage.setItem('svc.signedIn', '1'); return response.status; })`,
  )) as number;
  if (status !== 200) throw new Error(`browser sign-in of ${username} answered ${status}`);
}

/** Makes an account a root (no API grants the first root; the operator CLI does, on the database). */
export async function makeRoot(bed: GatewayBed, userId: string): Promise<void> {
  const pool = createPool({ url: bed.databaseUrl, max: 1 });
  try {
    await pool.query(`UPDATE users SET role = 'root' WHERE id = $1`, [userId]);
  } finally {
    await pool.end();
  }
}
