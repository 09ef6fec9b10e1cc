/** A root account for the admin page tests. */
import type { GatewayBed } from '../../gateways/bed.js';
import { createPool } from '../../../postgres/pool.js';

/** Makes an account a root (no API grants the first root; the operator CLI does, on the database). */
export async function makeRoot(bed: GatewayBed, userId: string): Promise<void> {
  const pool = createPool({ url: bed.databaseUrl, max: 1 });
  try {
    await pool.query(`UPDATE users SET role = 'root' WHERE id = $1`, [userId]);
  } finally {
    await pool.end();
  }
}
