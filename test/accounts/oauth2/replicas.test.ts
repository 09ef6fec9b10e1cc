/**
 * Spec 7.2 / 5 rule 5: with several replicas the OAuth2 callback may land on another replica
 * than the one that started the sign-in; the flow's state is in the shared Redis, so it works.
 * Two real `svc serve --role gateway` processes on one database and Redis; the operator
 * configures the provider with `svc settings update`, as documented.
 */
import test from 'ava';
import { bearer, call, native } from '../fixtures.js';
import { eventually } from '../../fixtures/deadline.js';
import { startOidcProvider, type TestOidcProvider } from '../../fixtures/oidc-provider.js';
import { generatedSecrets, replicaEnv, startReplica, type Replica } from '../../harness/replica.js';
import { freshDatabase } from '../../harness/stack.js';
import { runSvc } from '../../harness/svc-process.js';
import { authorize, callback, callbackParams, clientFor, oidcInstance } from './fixtures.js';

let first: Replica;
let second: Replica;
let op: TestOidcProvider;
const corp = clientFor('corp');

test.before(async () => {
  const databaseUrl = await freshDatabase('oauth2_replicas');
  const migrated = await runSvc(['migrate'], { SVC_DATABASE_URL: databaseUrl });
  if (migrated.code !== 0) throw new Error(`migrate failed: ${migrated.stderr}`);
  const secrets = await generatedSecrets();
  [first, second] = await Promise.all([
    replicaEnv(databaseUrl, secrets).then((env) => startReplica(['--role', 'gateway', '--replica-id', 'oauth2-a'], env)),
    replicaEnv(databaseUrl, secrets).then((env) => startReplica(['--role', 'gateway', '--replica-id', 'oauth2-b'], env)),
  ]);
  op = await startOidcProvider({ clients: [{ clientId: corp.clientId, clientSecret: corp.clientSecret, redirectUris: [corp.redirectUrl] }] });
  op.addAccount('replica-user', { preferred_username: 'wanderer', name: 'Wanderer' });
});

test.after.always(async () => {
  await Promise.all([first?.process.stop(), second?.process.stop()]);
  await op?.close();
});

async function setProviders(providers: unknown[], via: Replica): Promise<void> {
  const result = await runSvc(['settings', 'update', 'oauth2', '--set', `providers=${JSON.stringify(providers)}`], via.cliEnv);
  if (result.code !== 0) throw new Error(`settings update failed: ${result.stderr}`);
}

async function listed(replica: Replica): Promise<string[]> {
  const answer = await call<{ providers: Array<{ instanceName: string }> }>(`${replica.httpUrl}/api/auth/oauth2`, 'GET');
  return answer.body.providers.map((provider) => provider.instanceName);
}

test.serial('a sign-in started on one replica finishes on the other', async (t) => {
  await setProviders([oidcInstance(op, { ...corp, enableSignup: true })], first);
  await eventually(async () => (await listed(second)).includes('corp'), 10_000, 'replica b sees the corp instance');

  const started = await authorize(first.httpUrl, 'corp', '127.0.0.1');
  t.is(started.answer.status, 200, JSON.stringify(started.answer.body));
  const redirect = await op.signIn(started.authorizationUrl, 'replica-user');
  const finished = await callback(second.httpUrl, 'corp', { ...callbackParams(redirect), clientBinding: started.clientBinding }, '127.0.0.1');
  t.is(finished.status, 201, JSON.stringify(finished.body));
  t.is((finished.body.user as { username: string }).username, 'wanderer');

  // The session is the deployment's, not the replica's.
  const me = await call(`${first.httpUrl}/api/me`, 'GET', undefined, { ...native, ...bearer(String(finished.body.accessToken)) });
  t.is(me.status, 200);

  // And the other way round, for the identity now bound.
  const back = await authorize(second.httpUrl, 'corp', '127.0.0.1');
  const again = await callback(first.httpUrl, 'corp', { ...callbackParams(await op.signIn(back.authorizationUrl, 'replica-user')), clientBinding: back.clientBinding }, '127.0.0.1');
  t.is(again.status, 200);
  t.is((again.body.user as { id: string }).id, (finished.body.user as { id: string }).id);
});

test.serial('removing the instance on one replica stops its entry point on the other', async (t) => {
  await setProviders([oidcInstance(op, { ...corp, enableSignup: true })], first);
  await eventually(async () => (await listed(second)).includes('corp'), 10_000, 'replica b sees the corp instance');
  await setProviders([], first);
  await eventually(async () => !(await listed(second)).includes('corp'), 10_000, 'replica b drops the corp instance');
  const refused = await authorize(second.httpUrl, 'corp', '127.0.0.1');
  t.is(refused.answer.status, 404);
  t.is(refused.answer.body.code, 'not_found');
});
