import test from 'ava';
import { createServer } from 'node:net';
import pg from 'pg';
import { freePort, freshDatabase, startPrivatePostgres } from './stack.js';

async function withClient<T>(url: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

/** Tables, views, sequences... in schemas a test could have written to. */
const USER_RELATIONS = `
  SELECT count(*)::int AS n FROM pg_class c JOIN pg_namespace ns ON ns.oid = c.relnamespace
  WHERE ns.nspname NOT IN ('pg_catalog', 'information_schema') AND ns.nspname NOT LIKE 'pg_toast%'`;

test('freshDatabase gives a new, empty database that is isolated from the others', async (t) => {
  const first = await freshDatabase('Harness: fresh database!');
  const second = await freshDatabase('Harness: fresh database!');
  t.not(first, second);

  await withClient(first, async (client) => {
    const { rows } = await client.query<{ db: string }>('SELECT current_database() AS db');
    t.is(rows[0]?.db, new URL(first).pathname.slice(1));
    t.regex(rows[0]?.db ?? '', /^t_harness_fresh_database_[0-9a-f]{12}$/);
    const relations = await client.query<{ n: number }>(USER_RELATIONS);
    t.is(relations.rows[0]?.n, 0);
    await client.query('CREATE TABLE written_by_first (id int)');
  });

  await withClient(second, async (client) => {
    const relations = await client.query<{ n: number }>(USER_RELATIONS);
    t.is(relations.rows[0]?.n, 0, 'a table created in one fresh database shows up in another');
  });
});

test('a private PostgreSQL stops, refuses connections, and starts again with its data', async (t) => {
  const server = await startPrivatePostgres();
  t.teardown(() => server.destroy());

  await withClient(server.url, async (client) => {
    await client.query('CREATE TABLE survives (note text)');
    await client.query(`INSERT INTO survives VALUES ('written before the restart')`);
  });

  await server.stop();
  const refused = await t.throwsAsync(withClient(server.url, () => Promise.resolve(undefined)));
  t.is((refused as NodeJS.ErrnoException | undefined)?.code, 'ECONNREFUSED');

  await server.start();
  const notes = await withClient(server.url, async (client) => {
    const { rows } = await client.query<{ note: string }>('SELECT note FROM survives');
    return rows.map((row) => row.note);
  });
  t.deepEqual(notes, ['written before the restart']);
});

test('freePort returns a port that can be bound on 127.0.0.1', async (t) => {
  const port = await freePort();
  t.true(port > 0 && port < 65536);
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const address = server.address();
  t.is(typeof address === 'object' && address ? address.port : undefined, port);
});
