/**
 * Self-test of the in-process OpenID Connect provider fixture, driven by openid-client v6, the
 * relying-party library the server uses: if these pass, sign-in tests built on the fixture
 * exercise the real protocol (discovery, PKCE, state, nonce, code exchange, userinfo) over http.
 */
import test from 'ava';
import * as client from 'openid-client';
import { startOidcProvider, type OidcClientSpec, type TestOidcProvider } from '../../fixtures/oidc-provider.js';

// Never requested: signIn stops at the redirect, so nothing needs to listen there.
const REDIRECT_URI = 'http://127.0.0.1:3999/auth/oidc/callback';
const WEB_CLIENT: OidcClientSpec = {
  clientId: 'svc-web',
  clientSecret: 'svc-web-secret',
  redirectUris: [REDIRECT_URI],
};
const ALICE = {
  email: 'alice@example.com',
  email_verified: true,
  name: 'Alice Liddell',
  preferred_username: 'alice',
};

let op: TestOidcProvider;

test.before(async () => {
  op = await startOidcProvider({ clients: [WEB_CLIENT], accounts: { alice: ALICE } });
});

test.after.always(async () => {
  await op?.close();
});

interface AuthorizationRequest {
  config: client.Configuration;
  url: URL;
  verifier: string;
  state: string;
  nonce: string;
}

async function discover(spec: OidcClientSpec): Promise<client.Configuration> {
  return client.discovery(new URL(op.issuer), spec.clientId, spec.clientSecret, undefined, {
    execute: [client.allowInsecureRequests],
  });
}

async function authorizationRequest(
  spec: OidcClientSpec,
  overrides: Record<string, string> = {},
): Promise<AuthorizationRequest> {
  const config = await discover(spec);
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const nonce = client.randomNonce();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: spec.redirectUris[0]!,
    scope: 'openid email profile',
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce,
    ...overrides,
  });
  return { config, url, verifier, state, nonce };
}

test('signs in through the real provider: code exchange, ID token claims and userinfo', async (t) => {
  const request = await authorizationRequest(WEB_CLIENT);
  const callback = new URL(await op.signIn(request.url.href, 'alice'));

  t.is(`${callback.origin}${callback.pathname}`, REDIRECT_URI);
  t.is(callback.searchParams.get('state'), request.state);
  t.is(callback.searchParams.get('iss'), op.issuer);
  t.truthy(callback.searchParams.get('code'));

  const tokens = await client.authorizationCodeGrant(request.config, callback, {
    pkceCodeVerifier: request.verifier,
    expectedState: request.state,
    expectedNonce: request.nonce,
    idTokenExpected: true,
  });
  const claims = tokens.claims();
  t.truthy(claims);
  t.is(claims?.iss, op.issuer);
  t.is(claims?.aud, WEB_CLIENT.clientId);
  t.is(claims?.sub, 'alice');
  t.is(claims?.nonce, request.nonce);
  t.is(claims?.email, ALICE.email);
  t.is(claims?.email_verified, true);

  const userinfo = await client.fetchUserInfo(request.config, tokens.access_token, 'alice');
  t.is(userinfo.sub, 'alice');
  t.is(userinfo.email, ALICE.email);
  t.is(userinfo.name, ALICE.name);
  t.is(userinfo.preferred_username, ALICE.preferred_username);
});

test('signIn rejects with the provider error when the redirect_uri is not registered', async (t) => {
  const request = await authorizationRequest(WEB_CLIENT, {
    redirect_uri: 'http://127.0.0.1:3999/not/registered',
  });
  const error = await t.throwsAsync(op.signIn(request.url.href, 'alice'));
  t.regex(error?.message ?? '', /invalid_redirect_uri/);
  t.regex(error?.message ?? '', /redirect_uri did not match any of the client's registered redirect_uris/);
});

test('openid-client detects a state mismatch in the provider callback', async (t) => {
  const request = await authorizationRequest(WEB_CLIENT);
  const callback = new URL(await op.signIn(request.url.href, 'alice'));

  const error = await t.throwsAsync<client.ClientError>(
    client.authorizationCodeGrant(request.config, callback, {
      pkceCodeVerifier: request.verifier,
      expectedState: client.randomState(),
      expectedNonce: request.nonce,
    }),
  );
  // openid-client reports "invalid response encountered"; what was wrong is in the cause.
  t.is(error?.code, 'OAUTH_INVALID_RESPONSE');
  t.regex(String((error?.cause as Error | undefined)?.message), /unexpected "state" response parameter value/);

  // The state check runs before the code is spent: the same callback with the right state
  // succeeds, so the rejection above was the state and nothing else.
  const tokens = await client.authorizationCodeGrant(request.config, callback, {
    pkceCodeVerifier: request.verifier,
    expectedState: request.state,
    expectedNonce: request.nonce,
  });
  t.is(tokens.claims()?.sub, 'alice');
});

test('clients and accounts added at run time sign in, with client_secret_basic', async (t) => {
  const spec: OidcClientSpec = {
    clientId: 'svc-late',
    clientSecret: 'svc-late-secret',
    redirectUris: ['http://127.0.0.1:3998/cb'],
    tokenEndpointAuthMethod: 'client_secret_basic',
  };
  await op.addClient(spec);
  op.addAccount('bob', { email: 'bob@example.com', email_verified: false, name: 'Bob' });

  const config = await client.discovery(
    new URL(op.issuer),
    spec.clientId,
    undefined,
    client.ClientSecretBasic(spec.clientSecret),
    { execute: [client.allowInsecureRequests] },
  );
  const verifier = client.randomPKCECodeVerifier();
  const nonce = client.randomNonce();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: spec.redirectUris[0]!,
    scope: 'openid email',
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    nonce,
  });
  const callback = new URL(await op.signIn(url.href, 'bob'));
  const tokens = await client.authorizationCodeGrant(config, callback, {
    pkceCodeVerifier: verifier,
    expectedNonce: nonce,
    idTokenExpected: true,
  });
  t.is(tokens.claims()?.sub, 'bob');
  t.is(tokens.claims()?.email, 'bob@example.com');
  t.is(tokens.claims()?.email_verified, false);
  // Only the email scope was asked for, so profile claims stay out.
  t.is(tokens.claims()?.name, undefined);

  await t.throwsAsync(op.addClient({ ...spec, clientId: 'svc-bad', redirectUris: ['not a url'] }), {
    message: /svc-bad refused/,
  });
});

test('the provider requires PKCE: a request without code_challenge comes back as an error', async (t) => {
  const config = await discover(WEB_CLIENT);
  const state = client.randomState();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: REDIRECT_URI,
    scope: 'openid',
    state,
  });
  const callback = new URL(await op.signIn(url.href, 'alice'));
  t.is(callback.searchParams.get('error'), 'invalid_request');
  t.regex(callback.searchParams.get('error_description') ?? '', /requires PKCE/);
  t.is(callback.searchParams.get('code'), null);
});
