import test from 'ava';
import { parsePostgresUrl } from '../../net/postgres-url.js';

test('a one-host URL gives that host, the default port when none is written, and the same URL back', (t) => {
  const one = parsePostgresUrl('postgres://svc:pw@db.internal/svc?sslmode=require');
  t.deepEqual(one.hosts, [{ host: 'db.internal', port: 5432 }]);
  t.is(one.targetSessionAttrs, 'any');
  t.is(one.urlFor(one.hosts[0]!), 'postgres://svc:pw@db.internal:5432/svc?sslmode=require');
});

test('a multi-host URL gives every host in order, each with a URL of its own without target_session_attrs', (t) => {
  const url = parsePostgresUrl('postgresql://svc:p%40ss@10.0.0.1:5433,[::1]:6543,db3/svc?target_session_attrs=read-write&application_name=x');
  t.deepEqual(url.hosts, [
    { host: '10.0.0.1', port: 5433 },
    { host: '::1', port: 6543 },
    { host: 'db3', port: 5432 },
  ]);
  t.is(url.targetSessionAttrs, 'read-write');
  t.is(url.urlFor(url.hosts[1]!), 'postgresql://svc:p%40ss@[::1]:6543/svc?application_name=x');
  // node-postgres reads each of them as an ordinary URL.
  t.is(new URL(url.urlFor(url.hosts[1]!)).hostname, '[::1]');
  t.is(parsePostgresUrl('postgres://a,b/svc?target_session_attrs=primary').targetSessionAttrs, 'primary');
});

test('a host list with a hole, a bad port or an unknown session attribute is refused with what is wrong', (t) => {
  t.throws(() => parsePostgresUrl('postgres://svc@a:5432,,b/svc'), { message: 'has no host at position 2 of its host list' });
  t.throws(() => parsePostgresUrl('postgres://svc@/svc'), { message: 'has no host' });
  t.throws(() => parsePostgresUrl('postgres://svc@a:5432,b:99999/svc'), { message: 'has host 2 "b:99999" with port 99999, not 1-65535' });
  t.throws(() => parsePostgresUrl('postgres://svc@a/svc?target_session_attrs=standby'), {
    message: 'has target_session_attrs=standby; expected one of any, read-write, primary',
  });
  t.throws(() => parsePostgresUrl('mysql://svc@a/svc'), { message: 'is not a postgres:// or postgresql:// URL' });
});
