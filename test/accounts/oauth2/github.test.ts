/**
 * The `github` variant. Its endpoints are GitHub's and the setting has no fields to move them,
 * so request building and the user mapping are checked without a network; the code exchange
 * runs against a loopback stand-in that answers the way GitHub documents (form-encoded token
 * request, 200 with `error` for a refused code, numeric user ids), injected through
 * ClientConfigs as only tests do. It is our model of GitHub, not GitHub.
 */
import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import type * as client from 'openid-client';
import { ClientConfigs, exactRedirectUri } from '../../../accounts/methods/oauth2/client-configs.js';
import { authorizationUrl } from '../../../accounts/methods/oauth2/exchange.js';
import { GITHUB_ENDPOINTS, githubProfile, githubTokenFetch, type GithubEndpoints } from '../../../accounts/methods/oauth2/github.js';
import { GITHUB_ISSUER, type OAuth2Instance } from '../../../accounts/methods/oauth2/instances.js';
import { OAuth2Method } from '../../../accounts/methods/oauth2/oauth2-method.js';
import { uniqueIp, startAccountsBed, type AccountsBed } from '../fixtures.js';
import { startOidcProvider } from '../../fixtures/oidc-provider.js';
import { clientFor, oidcInstance, signInWith } from './fixtures.js';

const REDIRECT = 'https://watch.example.com/oauth2/callback?provider=gh';

function githubInstance(overrides: Partial<OAuth2Instance> = {}): OAuth2Instance {
  return {
    name: 'gh',
    kind: 'github',
    clientId: 'Iv1.client',
    clientSecret: 'gh-secret',
    redirectUrl: REDIRECT,
    identityIssuer: GITHUB_ISSUER,
    enableSignup: true,
    signupNeedReview: false,
    fingerprint: 'fp',
    ...overrides,
  };
}

test('the authorization URL is GitHub\'s, with PKCE, state and the redirect URL verbatim, and no scope or nonce', async (t) => {
  const config = await new ClientConfigs().get(githubInstance());
  const url = new URL(await authorizationUrl(config, githubInstance(), { state: 'st4te', pkceVerifier: 'v'.repeat(43) }));
  t.is(`${url.origin}${url.pathname}`, GITHUB_ENDPOINTS.authorization);
  t.is(url.searchParams.get('client_id'), 'Iv1.client');
  t.is(url.searchParams.get('redirect_uri'), REDIRECT);
  t.is(url.searchParams.get('response_type'), 'code');
  t.is(url.searchParams.get('state'), 'st4te');
  t.is(url.searchParams.get('code_challenge_method'), 'S256');
  t.is(url.searchParams.get('code_challenge'), createHash('sha256').update('v'.repeat(43)).digest('base64url'));
  t.is(url.searchParams.get('scope'), null);
  t.is(url.searchParams.get('nonce'), null);
});

test('the GitHub user maps to its numeric id as subject, login and name as hints; nothing else is trusted', (t) => {
  t.deepEqual(githubProfile({ id: 583231, login: 'octocat', name: 'The Octocat', email: 'octocat@github.com' }), {
    subject: '583231',
    username: 'octocat',
    name: 'The Octocat',
  });
  t.deepEqual(githubProfile({ id: 1, login: 'x', name: null }), { subject: '1', username: 'x' });
  for (const bad of [{ login: 'noid' }, { id: '583231', login: 'stringid' }, { id: -1 }, { id: 1.5 }, null, 'text']) {
    t.throws(() => githubProfile(bad), { message: /numeric user id/ }, JSON.stringify(bad));
  }
});

test("GitHub's 200-with-error token answers become OAuth2 error answers", async (t) => {
  const answer = (status: number, body: unknown): client.CustomFetch => () =>
    Promise.resolve(new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json; charset=utf-8' } }));
  const options = { body: new URLSearchParams(), headers: {}, method: 'POST', redirect: 'manual' } as const;
  const refused = await githubTokenFetch(answer(200, { error: 'bad_verification_code', error_description: 'The code passed is incorrect or expired.' }))('u', options);
  t.is(refused.status, 400);
  t.is(((await refused.json()) as { error: string }).error, 'bad_verification_code');
  const granted = await githubTokenFetch(answer(200, { access_token: 'gho_x', token_type: 'bearer', scope: '' }))('u', options);
  t.is(granted.status, 200);
  t.is(((await granted.json()) as { access_token: string }).access_token, 'gho_x');
});

test('the token request carries the configured redirect URL, not one rebuilt from the callback', async (t) => {
  let sent: URLSearchParams | undefined;
  const inner: client.CustomFetch = (_url, options) => {
    sent = options.body as URLSearchParams;
    return Promise.resolve(new Response('{}'));
  };
  const body = new URLSearchParams({ grant_type: 'authorization_code', code: 'c', redirect_uri: 'https://watch.example.com/oauth2/callback' });
  await exactRedirectUri(REDIRECT, inner)('u', { body, headers: {}, method: 'POST', redirect: 'manual' });
  t.is(sent?.get('redirect_uri'), REDIRECT);
  const refresh = new URLSearchParams({ grant_type: 'refresh_token', refresh_token: 'r' });
  await exactRedirectUri(REDIRECT, inner)('u', { body: refresh, headers: {}, method: 'POST', redirect: 'manual' });
  t.is(sent?.get('redirect_uri'), null);
});

/** GitHub as its documentation describes it, on loopback. */
async function fakeGithub(user: Record<string, unknown>): Promise<{ endpoints: GithubEndpoints; authorize(url: string): string; close: () => void }> {
  const codes = new Map<string, { challenge: string; redirectUri: string }>();
  const tokens = new Set<string>();
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const json = (status: number, body: unknown): void => {
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));
    };
    if (req.method === 'POST' && url.pathname === '/login/oauth/access_token') {
      let raw = '';
      req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
      req.on('end', () => {
        const form = new URLSearchParams(raw);
        const issued = codes.get(form.get('code') ?? '');
        codes.delete(form.get('code') ?? '');
        const verifier = form.get('code_verifier') ?? '';
        const ok =
          issued !== undefined &&
          form.get('client_id') === 'Iv1.client' &&
          form.get('client_secret') === 'gh-secret' &&
          form.get('redirect_uri') === issued.redirectUri &&
          createHash('sha256').update(verifier).digest('base64url') === issued.challenge;
        if (!ok) return json(200, { error: 'bad_verification_code', error_description: 'The code passed is incorrect or expired.' });
        const token = `gho_${randomBytes(12).toString('hex')}`;
        tokens.add(token);
        json(200, { access_token: token, token_type: 'bearer', scope: '' });
      });
      return;
    }
    if (req.method === 'GET' && url.pathname === '/user') {
      const token = (req.headers.authorization ?? '').replace(/^Bearer /, '');
      if (!tokens.has(token) || !req.headers['user-agent']) return json(401, { message: 'Bad credentials' });
      return json(200, user);
    }
    json(404, { message: 'Not Found' });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    endpoints: { authorization: `${base}/login/oauth/authorize`, token: `${base}/login/oauth/access_token`, user: `${base}/user` },
    /** The user approves: GitHub redirects to redirect_uri with code and state. */
    authorize(authorizationUrl: string): string {
      const request = new URL(authorizationUrl).searchParams;
      const code = randomBytes(10).toString('hex');
      codes.set(code, { challenge: request.get('code_challenge') ?? '', redirectUri: request.get('redirect_uri') ?? '' });
      const back = new URL(request.get('redirect_uri') ?? '');
      back.searchParams.set('code', code);
      back.searchParams.set('state', request.get('state') ?? '');
      return back.href;
    },
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

/** The bed's accounts module signing in through `endpoints` as GitHub. */
function githubMethod(endpoints: GithubEndpoints): OAuth2Method {
  const { accounts } = bed;
  return new OAuth2Method({
    pool: bed.pool,
    redis: bed.redis,
    settings: bed.settings,
    box: accounts.box,
    registration: accounts.registration,
    signIn: accounts.signIn,
    limits: accounts.limits,
    prefix: `t:gh:${randomBytes(4).toString('hex')}`,
    configs: new ClientConfigs({ github: endpoints }),
  });
}

/** What GitHub put on the redirect URL. */
function params(redirect: string): { code: string; state: string } {
  const url = new URL(redirect);
  return { code: url.searchParams.get('code')!, state: url.searchParams.get('state')! };
}

const githubProviders = [{ instanceName: 'gh', enableSignup: true, github: { clientId: 'Iv1.client', clientSecret: 'gh-secret', redirectUrl: REDIRECT } }];

let bed: AccountsBed;
test.before(async () => {
  bed = await startAccountsBed('oauth2-github');
  await bed.set('oauth2', { providers: githubProviders });
});
test.after.always(async () => {
  await bed?.close();
});

test.serial('a GitHub sign-in exchanges the code with PKCE and creates the account from the user API', async (t) => {
  const github = await fakeGithub({ id: 9_000_001, login: 'octo-cat', name: 'Octo Cat', email: 'public@example.com' });
  t.teardown(github.close);
  const method = githubMethod(github.endpoints);
  const client = { ip: uniqueIp() };

  const started = await method.start('gh', { purpose: 'login' }, client);
  const outcome = await method.finish('gh', params(github.authorize(started.authorizationUrl)), { clientBinding: started.clientBinding, client });
  t.is(outcome.kind, 'signed_in');
  const user = outcome.kind === 'signed_in' && outcome.result.status === 'signed_in' ? outcome.result.user : undefined;
  t.is(user?.username, 'octo-cat');
  t.is(user?.displayName, 'Octo Cat');
  t.is(user?.email, null);
  const { rows } = await bed.pool.query('SELECT subject FROM oauth2_bindings WHERE instance_name = $1 AND user_id = $2', ['gh', user?.id]);
  t.deepEqual(rows, [{ subject: '9000001' }]);

  // A code GitHub refuses (here: exchanged with another flow's verifier) is the provider's error, named.
  const one = await method.start('gh', { purpose: 'login' }, client);
  const two = await method.start('gh', { purpose: 'login' }, client);
  const codeOfOne = params(github.authorize(one.authorizationUrl)).code;
  const stateOfTwo = params(github.authorize(two.authorizationUrl)).state;
  const error = await t.throwsAsync(method.finish('gh', { code: codeOfOne, state: stateOfTwo }, { clientBinding: two.clientBinding, client }));
  t.is((error as { code?: string }).code, 'unauthenticated');
  t.regex(error?.message ?? '', /refused the code exchange: bad_verification_code \(The code passed is incorrect or expired\.\)/);
});

test.serial('a GitHub binding records GitHub as its issuer and does not sign in through an OIDC instance of the same name', async (t) => {
  const github = await fakeGithub({ id: 9_000_002, login: 'octo-dog', name: 'Octo Dog' });
  t.teardown(github.close);
  const method = githubMethod(github.endpoints);
  const client = { ip: uniqueIp() };
  const started = await method.start('gh', { purpose: 'login' }, client);
  const outcome = await method.finish('gh', params(github.authorize(started.authorizationUrl)), { clientBinding: started.clientBinding, client });
  t.is(outcome.kind, 'signed_in');
  const { rows } = await bed.pool.query('SELECT provider_kind, issuer FROM oauth2_bindings WHERE instance_name = $1 AND subject = $2', ['gh', '9000002']);
  t.deepEqual(rows, [{ provider_kind: 'github', issuer: GITHUB_ISSUER }]);

  // "gh" becomes an OIDC instance at a provider that claims the same subject.
  const spec = clientFor('gh');
  const op = await startOidcProvider({ clients: [{ clientId: spec.clientId, clientSecret: spec.clientSecret, redirectUris: [spec.redirectUrl] }] });
  t.teardown(() => op.close());
  op.addAccount('9000002', { name: 'Not Octo Dog' });
  await bed.set('oauth2', { providers: [oidcInstance(op, { ...spec, enableSignup: true })] });
  try {
    const answer = await signInWith(bed.url, op, 'gh', '9000002', uniqueIp());
    t.is(answer.status, 401, JSON.stringify(answer.body));
    t.regex(String(answer.body.message), /no longer signs in/);
    t.is(answer.body.accessToken, undefined);
  } finally {
    await bed.set('oauth2', { providers: githubProviders });
  }
});
