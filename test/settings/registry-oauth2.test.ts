import test from 'ava';
import { accepts, definition, rejects } from './registry-expect.js';

const KEY = 'oauth2.providers';
const GITHUB = { clientId: 'Iv1.abc', clientSecret: 'shh-github', redirectUrl: 'https://svc.example.com/oauth2/callback/github' };
const OIDC = {
  clientId: 'svc',
  clientSecret: 'shh-oidc',
  issuer: 'https://id.example.com/realms/main',
  redirectUrl: 'https://svc.example.com/oauth2/callback/corp',
};

function github(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { instanceName: 'github', github: { ...GITHUB }, ...extra };
}

function oidc(extra: Record<string, unknown> = {}, fields: Record<string, unknown> = {}): Record<string, unknown> {
  return { instanceName: 'corp', oidc: { ...OIDC, ...fields }, ...extra };
}

test('both provider variants are accepted, with and without signup flags', (t) => {
  const value = [github({ enableSignup: true, signupNeedReview: false }), oidc()];
  t.deepEqual(accepts(t, KEY, value), value);
  accepts(t, KEY, [oidc({}, { issuer: 'http://localhost:8081/realms/dev', redirectUrl: 'http://localhost:8080/cb' })]);
  accepts(t, KEY, [oidc({}, { issuer: 'http://127.0.0.1:9000' })]);
});

test('instanceName: charset', (t) => {
  for (const name of ['git hub', 'github.com', 'gïthub', 'a/b', 'corp:1']) {
    rejects(t, KEY, [github({ instanceName: name })], 'element 0: instanceName may contain only ASCII letters, digits, "_" and "-"');
  }
  accepts(t, KEY, [github({ instanceName: 'Corp_SSO-2' })]);
});

test('instanceName: 1..=64 bytes', (t) => {
  accepts(t, KEY, [github({ instanceName: 'a'.repeat(64) })]);
  accepts(t, KEY, [github({ instanceName: 'a' })]);
  rejects(t, KEY, [github({ instanceName: 'a'.repeat(65) })], 'element 0: instanceName must be 1..=64 bytes long, got 65');
  rejects(t, KEY, [github({ instanceName: '' })], 'instanceName must be 1..=64 bytes long, got 0');
});

test('instanceName: required, a string, unique', (t) => {
  const noName = github();
  delete noName.instanceName;
  rejects(t, KEY, [noName], 'element 0: instanceName is required');
  rejects(t, KEY, [github({ instanceName: 7 })], 'instanceName must be a string, got 7');
  rejects(t, KEY, [github(), oidc(), oidc({ instanceName: 'github' })], 'element 2: instanceName "github" duplicates element 0');
  accepts(t, KEY, [github(), github({ instanceName: 'github-enterprise' })]);
});

test('exactly one provider variant', (t) => {
  rejects(t, KEY, [{ instanceName: 'x' }], 'element 0: must have exactly one provider variant, github or oidc; found neither');
  rejects(t, KEY, [{ instanceName: 'x', github: GITHUB, oidc: OIDC }], 'found both github and oidc');
  rejects(t, KEY, [{ instanceName: 'x', github: 'yes' }], 'element 0: github must be an object, got string');
});

test('github: required fields', (t) => {
  for (const field of ['clientId', 'clientSecret', 'redirectUrl']) {
    const missing: Record<string, unknown> = { ...GITHUB };
    delete missing[field];
    rejects(t, KEY, [{ instanceName: 'gh', github: missing }], `element 0: github.${field} is required`);
    rejects(t, KEY, [{ instanceName: 'gh', github: { ...GITHUB, [field]: '' } }], `github.${field} must be a non-empty string`);
  }
  rejects(t, KEY, [{ instanceName: 'gh', github: { ...GITHUB, clientId: 5 } }], 'github.clientId must be a string, got number');
});

test('github: redirectUrl must be an absolute http(s) URL', (t) => {
  for (const url of ['/oauth2/callback', 'svc.example.com/cb', 'ftp://svc.example.com/cb', 'https:svc.example.com/cb', 'https://svc.example.com/c b']) {
    rejects(t, KEY, [{ instanceName: 'gh', github: { ...GITHUB, redirectUrl: url } }], 'github.redirectUrl must be an absolute http(s) URL');
  }
  rejects(t, KEY, [{ instanceName: 'gh', github: { ...GITHUB, redirectUrl: 'https://svc.example.com/cb#x' } }], 'must not have a fragment');
  accepts(t, KEY, [{ instanceName: 'gh', github: { ...GITHUB, redirectUrl: 'http://svc.example.com/cb?from=gh' } }]);
});

test('oidc: required fields and issuer rules', (t) => {
  for (const field of ['clientId', 'clientSecret', 'issuer', 'redirectUrl']) {
    const missing: Record<string, unknown> = { ...OIDC };
    delete missing[field];
    rejects(t, KEY, [{ instanceName: 'corp', oidc: missing }], `element 0: oidc.${field} is required`);
  }
  rejects(t, KEY, [oidc({}, { issuer: 'http://id.example.com' })], 'oidc.issuer must use https (http is allowed only for localhost)');
  rejects(t, KEY, [oidc({}, { issuer: 'https://id.example.com?tenant=1' })], 'oidc.issuer must not have a query');
  rejects(t, KEY, [oidc({}, { issuer: 'id.example.com' })], 'oidc.issuer must be an absolute http(s) URL');
  rejects(t, KEY, [oidc({}, { issuer: 'https://user:pw@id.example.com' })], 'oidc.issuer must not contain user:password credentials');
  rejects(t, KEY, [oidc({}, { redirectUrl: 'mailto:x@example.com' })], 'oidc.redirectUrl must be an absolute http(s) URL');
});

test('unknown fields are rejected by name', (t) => {
  rejects(t, KEY, [github({ name: 'GitHub' })], 'element 0: unknown field "name"');
  rejects(t, KEY, [github({ instance_name: 'github' })], 'unknown field "instance_name"');
  rejects(t, KEY, [{ instanceName: 'gh', github: { ...GITHUB, scope: 'read:user' } }], 'element 0: github: unknown field "scope"');
  rejects(t, KEY, [oidc({}, { issuerUrl: 'https://id.example.com' })], 'oidc: unknown field "issuerUrl"');
});

test('signup flags must be real booleans', (t) => {
  rejects(t, KEY, [github({ enableSignup: 'true' })], 'element 0: enableSignup must be true or false, got string "true"');
  rejects(t, KEY, [github({ signupNeedReview: 1 })], 'signupNeedReview must be true or false, got 1');
});

test('elements must be objects and the value an array', (t) => {
  rejects(t, KEY, ['github'], 'element 0: must be a provider object, got string');
  rejects(t, KEY, [github(), null], 'element 1: must be a provider object, got null');
  rejects(t, KEY, github(), 'must be a JSON array of provider objects, got an object');
});

test('client secrets are never echoed in messages', (t) => {
  for (const secret of [12345678, ['s3cr3t-value'], { value: 's3cr3t-value' }]) {
    const result = definition(KEY).validate([{ instanceName: 'gh', github: { ...GITHUB, clientSecret: secret } }]);
    if (result.ok) return t.fail('accepted a non-string secret');
    t.true(result.message.startsWith('element 0: github.clientSecret must be a string'), result.message);
    t.false(/12345678|s3cr3t/.test(result.message), result.message);
  }
});
