/**
 * Writes of security-sensitive runtime settings over the HTTP admin endpoint of a whole
 * service: `oauth2.providers` is root's to write, the answer names the OAuth2 instances whose
 * bound identities stop signing in, and each such write leaves an audit line (credentials
 * redacted) in the service log.
 */
import test from 'ava';
import { startGatewayBed, type GatewayBed, type Member } from '../gateways/bed.js';
import { capturingLogger } from '../workflows/fixtures.js';

let bed: GatewayBed;
let root: Member;
let admin: Member;
const log = capturingLogger();

const oidc = (issuer: string, clientSecret = 'first-client-secret') => ({
  instanceName: 'corp',
  enableSignup: true,
  oidc: { clientId: 'svc-corp', clientSecret, issuer, redirectUrl: 'https://svc.test/oauth2/callback/corp' },
});
const github = { instanceName: 'gh', github: { clientId: 'Iv1.client', clientSecret: 'gh-client-secret', redirectUrl: 'https://svc.test/oauth2/callback/gh' } };

test.before(async () => {
  bed = await startGatewayBed('settings-security', { logger: log.logger });
  root = await bed.admin('root', 'root');
  admin = await bed.admin('admin');
});
test.after.always(async () => {
  await bed?.close();
});

function auditLines(key: string): Array<Record<string, unknown>> {
  return log.lines.filter((line) => line.audit === 'settings.update' && line.key === key);
}

test.serial('an admin who is not root may not write oauth2.providers; nothing is written', async (t) => {
  const answer = await bed.call<{ code: string; message: string; issues: Array<{ key: string }> }>(
    'PATCH',
    '/api/admin/setting-groups/oauth2',
    { providers: [oidc('https://idp.example.com')] },
    admin.token,
  );
  t.is(answer.status, 403);
  t.is(answer.body.code, 'forbidden');
  t.regex(answer.body.message, /oauth2\.providers/);
  t.deepEqual(answer.body.issues.map((issue) => issue.key), ['oauth2.providers']);
  t.deepEqual(bed.service.settings.get('oauth2.providers'), []);
  // Other groups stay the admin's to write.
  t.is((await bed.call('PATCH', '/api/admin/setting-groups/server', { maxRoomsPerUser: 12 }, admin.token)).status, 200);
});

test.serial("root's write that changes an instance's issuer or kind says whose bindings no longer sign in, and is audited without secrets", async (t) => {
  const first = await bed.call<{ oauth2IssuerChanges: unknown[] }>('PATCH', '/api/admin/setting-groups/oauth2', { providers: [oidc('https://idp.example.com'), github] }, root.token);
  t.is(first.status, 200, JSON.stringify(first.body));
  t.deepEqual(first.body.oauth2IssuerChanges, [], 'new instances have no bindings to lose');

  const moved = await bed.call<{ oauth2IssuerChanges: Array<{ instanceName: string; previous: unknown; current: unknown; message: string }> }>(
    'PATCH',
    '/api/admin/setting-groups/oauth2',
    { providers: [oidc('https://other-idp.example.com', 'second-client-secret'), { ...github, enableSignup: true }] },
    root.token,
  );
  t.is(moved.status, 200, JSON.stringify(moved.body));
  t.is(moved.body.oauth2IssuerChanges.length, 1, 'gh changed a flag only');
  const [change] = moved.body.oauth2IssuerChanges;
  t.is(change?.instanceName, 'corp');
  t.deepEqual(change?.previous, { provider: 'oidc', issuer: 'https://idp.example.com' });
  t.deepEqual(change?.current, { provider: 'oidc', issuer: 'https://other-idp.example.com' });
  t.regex(change?.message ?? '', /"corp".*no longer sign in/);

  const kind = await bed.call<{ oauth2IssuerChanges: Array<{ instanceName: string; current: unknown }> }>(
    'PATCH',
    '/api/admin/setting-groups/oauth2',
    { providers: [oidc('https://other-idp.example.com', 'second-client-secret'), { ...github, github: undefined, oidc: oidc('https://idp.example.com').oidc }] },
    root.token,
  );
  t.is(kind.status, 200, JSON.stringify(kind.body));
  t.deepEqual(kind.body.oauth2IssuerChanges.map((entry) => [entry.instanceName, entry.current]), [['gh', { provider: 'oidc', issuer: 'https://idp.example.com' }]]);

  const audited = auditLines('oauth2.providers');
  t.is(audited.length, 3);
  t.is(audited[1]?.actor, `user:${root.username}`);
  t.is(audited[1]?.source, 'http');
  t.is(audited[1]?.version, 2);
  t.deepEqual((audited[1]?.newValue as Array<{ oidc?: { issuer: string } }>)[0]?.oidc?.issuer, 'https://other-idp.example.com');
  const text = JSON.stringify(audited);
  for (const secret of ['first-client-secret', 'second-client-secret', 'gh-client-secret']) t.false(text.includes(secret), secret);
});

test.serial('signup switches, review switches, guests and default permissions are audited; other settings are not', async (t) => {
  t.is((await bed.call('PATCH', '/api/admin/setting-groups/user', { enableGuest: false, passwordSignupNeedReview: true, enableWebauthnSignup: true }, admin.token)).status, 200);
  t.is((await bed.call('PATCH', '/api/admin/setting-groups/permissions', { memberDefaultPermissions: ['send_chat'] }, admin.token)).status, 200);
  for (const key of ['user.enableGuest', 'user.passwordSignupNeedReview', 'user.enableWebauthnSignup', 'permissions.memberDefaultPermissions']) {
    const [line] = auditLines(key);
    t.truthy(line, key);
    t.is(line?.actor, `user:${admin.username}`, key);
  }
  t.deepEqual(auditLines('user.enableGuest')[0]?.newValue, false);
  t.deepEqual(auditLines('server.maxRoomsPerUser'), []);
});
