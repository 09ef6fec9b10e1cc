/**
 * A PostgreSQL failover under the pool and the settings listener, on a real pair of infra/stack.sh
 * (a primary and a synchronous streaming standby) and a multi-host `database.url` with
 * `target_session_attrs=read-write`: the primary is killed, the standby promoted, and svc's
 * connections must find the new primary on their own, with every acknowledged write there and
 * notifications flowing again; the lost node then comes back as the standby.
 */
import test from 'ava';
import pg from 'pg';
import { isAppError } from '../../errors/app-error.js';
import { createLogger } from '../../observability/logger.js';
import { classifyDatabaseError } from '../../postgres/errors.js';
import { createPool } from '../../postgres/pool.js';
import { NotifyListener } from '../../settings/notify-listener.js';
import { waitFor, withDeadline } from '../fixtures/deadline.js';
import { isPrimary, killNode, nodeUrl, primaryNode } from '../harness/postgres-pair.js';
import { startPrivatePostgresPair, type PrivatePostgresPair } from '../harness/stack.js';

const logger = createLogger({ level: process.env.SVCTEST_LOG_LEVEL ?? 'silent', destination: 'stderr' });

let pair: PrivatePostgresPair;

test.before(async () => {
  pair = await startPrivatePostgresPair();
});

test.after.always(async () => {
  await pair?.destroy();
});

async function valueOn(url: string, sql: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ value: string }>(sql);
    return String(rows[0]?.value);
  } finally {
    await client.end();
  }
}

test.serial('a standby alone is refused, with each host and why in the message', async (t) => {
  const primary = await primaryNode(pair.nodes);
  const other = pair.nodes.find((node) => node !== primary)!;
  const pool = createPool({ url: `postgres://svc@127.0.0.1:${other.port}/svc?target_session_attrs=read-write`, max: 1, logger });
  try {
    const err = await t.throwsAsync(pool.query('SELECT 1'));
    t.regex(err.message, new RegExp(`no PostgreSQL host of database.url is a read-write server: 127.0.0.1:${other.port} it is a standby`));
    // Answered to clients as a 503 to retry, without the hosts and ports.
    const answered = classifyDatabaseError(err, 'request', { detail: false });
    t.true(isAppError(answered) && answered.code === 'unavailable');
    t.is(isAppError(answered) ? answered.message : '', 'request: the database is unavailable; try again');
  } finally {
    await pool.end();
  }
  // Without the condition any host serves reads.
  const any = createPool({ url: nodeUrl(other), max: 1, logger });
  try {
    t.is((await any.query<{ one: number }>('SELECT 1 AS one')).rows[0]!.one, 1);
  } finally {
    await any.end();
  }
});

test.serial('after the primary is killed and its standby promoted, writes and notifications reach the new primary; nothing acknowledged is lost', async (t) => {
  const pool = createPool({ url: pair.url, max: 4, logger });
  const notifications: string[] = [];
  const listens: boolean[] = [];
  const listener = new NotifyListener({
    connectionString: pair.url,
    channel: 'failover_test',
    applicationName: 'svc:failover-test',
    logger,
    backoff: { initialMs: 50, maxMs: 500 },
    heartbeatMs: 500,
    onNotification: (payload) => notifications.push(payload ?? ''),
    onListening: ({ reconnect }) => {
      listens.push(reconnect);
      return Promise.resolve();
    },
  });
  try {
    await pool.query('CREATE TABLE acknowledged (n int PRIMARY KEY)');
    await listener.start();
    const acknowledged: number[] = [];
    for (let n = 1; n <= 50; n++) {
      await pool.query('INSERT INTO acknowledged VALUES ($1)', [n]);
      acknowledged.push(n);
    }
    await pool.query("SELECT pg_notify('failover_test', 'before')");
    await waitFor('the notification before the failover', () => (notifications.includes('before') ? true : undefined), 10_000);

    const old = await primaryNode(pair.nodes);
    await killNode(old);
    await pair.promote();
    const promoted = pair.nodes.find((node) => node !== old)!;
    t.true(await isPrimary(promoted));

    // The pool's connections to the killed node are gone; the next ones must find the new primary.
    await waitFor('a write through the pool after the failover', async () => {
      await pool.query('INSERT INTO acknowledged VALUES (51)');
      return true;
    }, 20_000, 100);
    const { rows } = await pool.query<{ n: number }>('SELECT n FROM acknowledged ORDER BY n');
    t.deepEqual(
      rows.map((row) => row.n),
      [...acknowledged, 51],
      'every write acknowledged before the kill is on the promoted node',
    );

    // The listener lost its connection and listens again, on the primary (NOTIFY is not
    // replicated, so a listener left on a standby would hear nothing).
    await waitFor('the listener listening again', () => (listens.includes(true) ? true : undefined), 20_000);
    await waitFor('a notification after the failover', async () => {
      await pool.query("SELECT pg_notify('failover_test', 'after')");
      return notifications.includes('after') ? true : undefined;
    }, 20_000, 200);

    // The lost node comes back as the standby, and commits wait for it again.
    await withDeadline(pair.start(), 60_000, 'the killed node copied back as the standby');
    t.false(await isPrimary(old));
    t.is(await valueOn(nodeUrl(promoted), "SELECT current_setting('synchronous_standby_names') AS value"), '*');
    await pool.query('INSERT INTO acknowledged VALUES (52)');
    // Flushed there before the commit returned; replayed (visible to a reader) moments later.
    await waitFor('the write replayed on the new standby', async () => ((await valueOn(nodeUrl(old), 'SELECT max(n) AS value FROM acknowledged')) === '52' ? true : undefined), 10_000);
    t.pass();
  } finally {
    await listener.stop();
    await pool.end();
  }
});
