/**
 * OAuth2 / OIDC sign-in (`/api/auth/oauth2/...`) and the signed-in user's provider identities
 * (`/api/me/oauth2/...`). Paths are fixed: clients depend on them. A leaf module (zod and the
 * error codes only).
 *
 * The flow, for a web client: POST .../authorize, send the browser to `authorizationUrl`; the
 * provider sends it back to the instance's redirectUrl (a page of the web client) with `code`,
 * `state` and maybe `iss` (or `error`); the page POSTs those, unchanged, to .../callback.
 * Browsers carry the flow's client binding in the httpOnly `svc_oauth2` cookie; native clients
 * (`X-Svc-Client: native`) get `clientBinding` in the authorize answer and send it back in the
 * callback body. A callback without the binding of the client that started the flow is refused.
 */
import { z } from 'zod';
import { oneLineText } from '../text.js';
import { PendingReview, SignedIn, SignInAnswer } from './sign-in-answers.js';
import { RECENT_SIGN_IN_RULE, recentSignInProof } from './account-fields.js';
import { defineEndpoint } from './endpoint.js';

const AUTH_TAGS = ['auth'];
const ME_TAGS = ['users'];

/** Not checked against the instance-name rule here: an unknown name is simply not_found. */
const InstanceParams = z.strictObject({ instance: oneLineText().min(1).max(128).meta({ description: 'instanceName of an oauth2.providers entry' }) });

const clientBinding = oneLineText()
  .min(1)
  .max(128)
  .meta({ description: 'Native clients only: the value from the authorize answer. Browsers send the svc_oauth2 cookie instead.' });

const Authorization = z
  .object({
    authorizationUrl: z.string().meta({ description: "Send the user's browser here; valid for 10 minutes." }),
    clientBinding: clientBinding.optional(),
  })
  .meta({ id: 'OAuth2Authorization' });

const BINDING_COOKIE = { 'Set-Cookie': { description: 'Browsers: svc_oauth2, the flow\'s client binding (httpOnly, path /api/auth/oauth2, 10 minutes)' } };

const BindingView = z
  .object({
    instanceName: z.string(),
    configured: z.boolean().meta({ description: 'False when the instance was removed from oauth2.providers or now uses another provider kind or issuer than the one that vouched for the identity: it no longer signs in (bind it again).' }),
    createdAt: z.string().meta({ format: 'date-time' }),
    lastLoginAt: z.string().nullable().meta({ format: 'date-time' }),
  })
  .meta({ id: 'OAuth2Binding' });

const Bound = z
  .object({ status: z.literal('bound'), binding: BindingView })
  .meta({ id: 'OAuth2Bound', description: 'A bind finished: the identity now signs in to the caller\'s account.' });

export const listOAuth2Providers = defineEndpoint({
  method: 'get',
  path: '/api/auth/oauth2',
  operationId: 'listOAuth2Providers',
  summary: 'The OAuth2 / OIDC provider instances this server offers (for sign-in buttons)',
  tags: AUTH_TAGS,
  access: 'public',
  responses: {
    200: {
      description: 'Configured instances, in setting order',
      schema: z.object({
        providers: z.array(
          z.object({
            instanceName: z.string(),
            provider: z.enum(['github', 'oidc']),
            signupEnabled: z.boolean().meta({ description: 'Whether a first-time identity may create an account.' }),
          }),
        ),
      }),
    },
  },
  errors: [],
});

export const oauth2Authorize = defineEndpoint({
  method: 'post',
  path: '/api/auth/oauth2/{instance}/authorize',
  operationId: 'oauth2Authorize',
  summary: 'Start signing in (or signing up) with a provider instance',
  description: 'Creates the flow (state, PKCE verifier, OIDC nonce; kept 10 minutes) and answers the provider URL, built on the instance\'s redirectUrl exactly as configured.',
  tags: AUTH_TAGS,
  access: 'public',
  params: InstanceParams,
  responses: { 200: { description: 'Where to send the browser', schema: Authorization, headers: BINDING_COOKIE } },
  errors: ['not_found', 'rate_limited', 'unavailable'],
});

export const oauth2AuthorizeRedirect = defineEndpoint({
  method: 'get',
  path: '/api/auth/oauth2/{instance}/authorize',
  operationId: 'oauth2AuthorizeRedirect',
  summary: 'Browser variant of oauth2Authorize: redirects to the provider',
  description: 'For a plain link or form on a sign-in page. The callback is the same POST .../callback.',
  tags: AUTH_TAGS,
  access: 'public',
  params: InstanceParams,
  responses: { 302: { description: 'To the provider', headers: { Location: { description: 'The provider authorization URL' }, ...BINDING_COOKIE } } },
  errors: ['not_found', 'rate_limited', 'unavailable'],
});

export const oauth2Callback = defineEndpoint({
  method: 'post',
  path: '/api/auth/oauth2/{instance}/callback',
  operationId: 'oauth2Callback',
  summary: 'Finish a provider sign-in, signup or bind with what the provider put on the redirect URL',
  description:
    'The state is good once. A bound identity signs its account in (whatever enableSignup says); a new one creates an account (201) or files it for review (202) when the instance allows signup. ' +
    'A bind started by POST /api/me/oauth2/{instance}/authorize needs the same user\'s access token here.',
  tags: AUTH_TAGS,
  access: 'public',
  params: InstanceParams,
  body: z.strictObject({
    state: oneLineText().min(1).max(128),
    code: oneLineText().min(1).max(2048).optional(),
    iss: oneLineText().min(1).max(2048).optional().meta({ description: 'RFC 9207 issuer, when the provider sends one: forward it.' }),
    error: oneLineText().min(1).max(256).optional(),
    error_description: oneLineText().max(2048).optional(),
    error_uri: oneLineText().max(2048).optional(),
    clientBinding: clientBinding.optional(),
  }),
  responses: {
    200: { description: 'Signed in, a second factor is required, or (a bind) bound', schema: z.union([SignInAnswer, Bound]) },
    201: { description: 'Account created and signed in', schema: SignedIn },
    202: { description: 'Account filed for review', schema: PendingReview },
  },
  errors: ['unauthenticated', 'not_found', 'conflict', 'signup_disabled', 'review_pending', 'review_rejected', 'account_banned', 'rate_limited', 'unavailable'],
});

export const oauth2BindAuthorize = defineEndpoint({
  method: 'post',
  path: '/api/me/oauth2/{instance}/authorize',
  operationId: 'oauth2BindAuthorize',
  summary: 'Start binding a provider identity to your account',
  description: `Finished by POST /api/auth/oauth2/{instance}/callback with your access token. Binding is not a signup: enableSignup does not apply. ${RECENT_SIGN_IN_RULE}`,
  tags: ME_TAGS,
  access: 'user',
  params: InstanceParams,
  body: z.strictObject({ ...recentSignInProof }).optional(),
  responses: { 200: { description: 'Where to send the browser', schema: Authorization, headers: BINDING_COOKIE } },
  errors: ['invalid_argument', 'unauthenticated', 'forbidden', 'not_found', 'rate_limited', 'unavailable'],
});

export const listOAuth2Bindings = defineEndpoint({
  method: 'get',
  path: '/api/me/oauth2',
  operationId: 'listOAuth2Bindings',
  summary: 'Your provider identities',
  tags: ME_TAGS,
  access: 'user',
  responses: { 200: { description: 'One entry per instance', schema: z.object({ bindings: z.array(BindingView) }) } },
  errors: ['unauthenticated', 'forbidden'],
});

export const oauth2Unbind = defineEndpoint({
  method: 'delete',
  path: '/api/me/oauth2/{instance}',
  operationId: 'oauth2Unbind',
  summary: 'Remove your identity at a provider instance',
  description: 'Refused (conflict) when it is the account\'s last way to sign in: no password, no passkey, no identity at another configured instance.',
  tags: ME_TAGS,
  access: 'user',
  params: InstanceParams,
  responses: { 204: { description: 'Removed' } },
  errors: ['unauthenticated', 'forbidden', 'not_found', 'conflict'],
});
