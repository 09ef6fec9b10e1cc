/**
 * Migration 0009 stamps the bindings that exist when it runs with the kind and issuer of their
 * instance as `oauth2.providers` held them then; bindings of an instance not configured stay
 * unstamped (and so never sign in). Run against a database at 0008 with such rows.
 */
import test from 'ava';
import { migrations } from '../../../postgres/migrations/index.js';
import { migration0009 } from '../../../postgres/migrations/0009_oauth2_binding_issuer.js';
import { createPool } from '../../../postgres/pool.js';
import { freshDatabase } from '../../harness/stack.js';

test('existing bindings get the kind and issuer of their instance as configured; others stay NULL', async (t) => {
  const pool = createPool({ url: await freshDatabase('migration_0009'), max: 1 });
  t.teardown(() => pool.end());
  for (const migration of migrations.filter((m) => m.id < migration0009.id)) await pool.query(migration.up);
  const providers = [
    { instanceName: 'corp', oidc: { clientId: 'c', clientSecret: 's', issuer: 'https://idp.example.com', redirectUrl: 'https://svc.test/cb' } },
    { instanceName: 'gh', github: { clientId: 'c', clientSecret: 's', redirectUrl: 'https://svc.test/cb' } },
  ];
  await pool.query(`INSERT INTO settings (key, value, version, updated_by) VALUES ('oauth2.providers', $1::jsonb, 1, 'test')`, [JSON.stringify(providers)]);
  const { rows: users } = await pool.query<{ id: string }>(`INSERT INTO users (username, username_key, display_name) VALUES ('a', 'a', 'a') RETURNING id`);
  for (const instance of ['corp', 'gh', 'gone']) {
    await pool.query('INSERT INTO oauth2_bindings (instance_name, subject, user_id) VALUES ($1, $2, $3)', [instance, 'sub', users[0]!.id]);
  }

  await pool.query(migration0009.up);

  const { rows } = await pool.query('SELECT instance_name, provider_kind, issuer FROM oauth2_bindings ORDER BY instance_name');
  t.deepEqual(rows, [
    { instance_name: 'corp', provider_kind: 'oidc', issuer: 'https://idp.example.com' },
    { instance_name: 'gh', provider_kind: 'github', issuer: 'https://github.com' },
    { instance_name: 'gone', provider_kind: null, issuer: null },
  ]);
});
