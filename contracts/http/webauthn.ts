/**
 * Passkey (WebAuthn) endpoints: signup and sign-in under `/api/auth/webauthn/...`, and the
 * signed-in user's passkeys under `/api/me/passkeys`. Each ceremony is two calls: `options`
 * answers a `challengeId` and the options for `navigator.credentials.create/get`; the verify
 * call sends the `challengeId` back with the credential's `toJSON()`. A challenge works once
 * and for five minutes. A leaf module (zod and the error codes only).
 */
import { z } from 'zod';
import { oneLineText, privateText } from '../text.js';
import { fields, RECENT_SIGN_IN_RULE, recentSignInProof } from './account-fields.js';
import { PendingReview, SignedIn, SignInAnswer } from './sign-in-answers.js';
import { defineEndpoint, type ResponseSpec } from './endpoint.js';

const AUTH_TAGS = ['auth'];
const ME_TAGS = ['users'];

/** Binary fields travel as base64url without padding, as `PublicKeyCredential.toJSON()` writes them. */
const base64url = (maxChars: number) =>
  z
    .string()
    .min(1)
    .max(maxChars)
    .regex(/^[A-Za-z0-9_-]+$/, 'must be base64url without padding');

/** Credential ids are at most 1023 bytes (WebAuthn §5.8.3). */
const credentialId = base64url(1400).meta({ description: 'Credential id, base64url' });
const challengeId = oneLineText().min(1).max(64).meta({ description: 'The challengeId the options call answered' });
const passkeyName = oneLineText().min(1).max(64).meta({ description: 'A label for the passkey (default "Passkey")' });
/** Unknown transports are accepted (browsers add new ones) and dropped when stored. */
const transport = z.string().regex(/^[a-z0-9-]{1,32}$/, 'must be a transport name such as internal, hybrid or usb');
const attachment = z.enum(['platform', 'cross-platform']).nullable().optional();
/**
 * A JSON value nested at most `depth` deep whose text (keys included) is text the server can
 * hold: no NUL, no lone surrogate, as every transport checks all a client sends.
 */
function storableJson(depth: number): z.ZodType {
  const leaf = z.union([z.null(), z.boolean(), z.number(), privateText()]);
  if (depth === 0) return leaf;
  const inner = storableJson(depth - 1);
  return z.union([leaf, z.array(inner), z.record(privateText(), inner)]);
}
/**
 * Extension outputs are the browser's business; nothing here reads them (the server verifies with
 * none). Any that `toJSON()` gives fits: an object of JSON values nested at most 4 deep (prf's
 * results.first is 3), with storable text. Deeper or with a NUL is refused by name.
 */
const extensionResults = z
  .record(privateText(), storableJson(3))
  .optional()
  .meta({ description: 'The extension outputs, as toJSON() gives them (appid, credProps, prf, largeBlob, ...): read by nobody, so any JSON object nested at most 4 deep without NUL or lone surrogates' });

export const RegistrationResponse = z
  .strictObject({
    id: credentialId,
    rawId: credentialId,
    type: z.literal('public-key'),
    response: z.strictObject({
      clientDataJSON: base64url(8192),
      attestationObject: base64url(32_768),
      authenticatorData: base64url(16_384).optional(),
      transports: z.array(transport).max(16).optional(),
      publicKeyAlgorithm: z.number().int().optional(),
      publicKey: base64url(8192).optional(),
    }),
    authenticatorAttachment: attachment,
    clientExtensionResults: extensionResults,
  })
  .meta({ id: 'PasskeyRegistrationResponse', description: "The result of navigator.credentials.create(), as the credential's toJSON() gives it" });

export const AuthenticationResponse = z
  .strictObject({
    id: credentialId,
    rawId: credentialId,
    type: z.literal('public-key'),
    response: z.strictObject({
      clientDataJSON: base64url(8192),
      authenticatorData: base64url(16_384),
      signature: base64url(8192),
      userHandle: base64url(128).nullable().optional(),
    }),
    authenticatorAttachment: attachment,
    clientExtensionResults: extensionResults,
  })
  .meta({ id: 'PasskeyAuthenticationResponse', description: "The result of navigator.credentials.get(), as the credential's toJSON() gives it" });

const Descriptor = z.object({ id: z.string(), type: z.literal('public-key'), transports: z.array(z.string()).optional() });

const CreationOptions = z
  .looseObject({
    challenge: z.string(),
    rp: z.object({ name: z.string(), id: z.string() }),
    user: z.object({ id: z.string(), name: z.string(), displayName: z.string() }),
    pubKeyCredParams: z.array(z.object({ type: z.literal('public-key'), alg: z.number().int() })),
    timeout: z.number().int().optional(),
    excludeCredentials: z.array(Descriptor).optional(),
    authenticatorSelection: z.record(z.string(), z.unknown()).optional(),
    attestation: z.string().optional(),
  })
  .meta({
    id: 'PasskeyCreationOptions',
    description: 'PublicKeyCredentialCreationOptionsJSON: give it to PublicKeyCredential.parseCreationOptionsFromJSON() and navigator.credentials.create({publicKey}).',
  });

const RequestOptions = z
  .looseObject({
    challenge: z.string(),
    rpId: z.string().optional(),
    allowCredentials: z.array(Descriptor).optional(),
    timeout: z.number().int().optional(),
    userVerification: z.string().optional(),
  })
  .meta({
    id: 'PasskeyRequestOptions',
    description: 'PublicKeyCredentialRequestOptionsJSON: give it to PublicKeyCredential.parseRequestOptionsFromJSON() and navigator.credentials.get({publicKey}).',
  });

const creationChallenge: ResponseSpec = {
  description: 'The challenge handle and the creation options',
  schema: z.object({ challengeId: z.string(), options: CreationOptions }),
};

export const PasskeyView = z
  .object({
    id: z.string().meta({ description: 'Credential id, base64url' }),
    name: z.string(),
    transports: z.array(z.string()),
    createdAt: z.string().meta({ format: 'date-time' }),
    lastUsedAt: z.string().nullable().meta({ format: 'date-time' }),
  })
  .meta({ id: 'Passkey' });

const CEREMONY_ERRORS = ['unauthenticated', 'unavailable', 'rate_limited'] as const;

export const webauthnRegisterOptions = defineEndpoint({
  method: 'post',
  path: '/api/auth/webauthn/register/options',
  operationId: 'webauthnRegisterOptions',
  summary: 'Passkey signup, first step: options for navigator.credentials.create()',
  description: 'Runtime setting user.enableWebauthnSignup. The username is checked (valid, not taken) before any passkey is made.',
  tags: AUTH_TAGS,
  access: 'public',
  body: z.strictObject({ username: fields.username, displayName: fields.displayName.optional() }),
  responses: { 200: creationChallenge },
  errors: ['signup_disabled', 'conflict', 'unavailable', 'rate_limited'],
});

export const webauthnRegisterVerify = defineEndpoint({
  method: 'post',
  path: '/api/auth/webauthn/register/verify',
  operationId: 'webauthnRegisterVerify',
  summary: 'Passkey signup, second step: creates the account with the passkey, or files it for review',
  description: 'Under user.webauthnSignupNeedReview the review holds the passkey; approval creates the account with it.',
  tags: AUTH_TAGS,
  access: 'public',
  body: z.strictObject({ challengeId, response: RegistrationResponse, name: passkeyName.optional() }),
  responses: {
    201: { description: 'Account created and signed in', schema: SignedIn },
    202: { description: 'Account filed for review', schema: PendingReview },
  },
  errors: ['signup_disabled', 'conflict', ...CEREMONY_ERRORS],
});

export const webauthnLoginOptions = defineEndpoint({
  method: 'post',
  path: '/api/auth/webauthn/login/options',
  operationId: 'webauthnLoginOptions',
  summary: 'Passkey sign-in, first step: options for navigator.credentials.get()',
  description:
    "Without a username the browser offers the discoverable passkeys it holds for this site. With one, the options list that account's passkeys; every username gets an answer of the same shape.",
  tags: AUTH_TAGS,
  access: 'public',
  body: z.strictObject({ username: fields.username.optional() }).optional(),
  responses: { 200: { description: 'The challenge handle and the request options', schema: z.object({ challengeId: z.string(), options: RequestOptions }) } },
  errors: ['unavailable', 'rate_limited'],
});

export const webauthnLoginVerify = defineEndpoint({
  method: 'post',
  path: '/api/auth/webauthn/login/verify',
  operationId: 'webauthnLoginVerify',
  summary: 'Passkey sign-in, second step: opens a session (or asks for the second factor)',
  description: "Refused when the authenticator's signature counter does not advance: a sign of a cloned authenticator.",
  tags: AUTH_TAGS,
  access: 'public',
  body: z.strictObject({ challengeId, response: AuthenticationResponse }),
  responses: { 200: { description: 'Signed in, or a second factor is required', schema: SignInAnswer } },
  errors: ['review_pending', 'review_rejected', 'account_banned', ...CEREMONY_ERRORS],
});

export const passkeyBindOptions = defineEndpoint({
  method: 'post',
  path: '/api/me/passkeys/options',
  operationId: 'passkeyBindOptions',
  summary: 'Add a passkey to your account, first step: options for navigator.credentials.create()',
  description: `Not a signup: works whatever user.enableWebauthnSignup says. Authenticators already holding one of your passkeys are excluded. ${RECENT_SIGN_IN_RULE}`,
  tags: ME_TAGS,
  access: 'user',
  body: z.strictObject({ ...recentSignInProof }).optional(),
  responses: { 200: creationChallenge },
  errors: ['invalid_argument', 'unauthenticated', 'forbidden', 'limit_exceeded', 'rate_limited', 'unavailable'],
});

export const bindPasskey = defineEndpoint({
  method: 'post',
  path: '/api/me/passkeys',
  operationId: 'bindPasskey',
  summary: 'Add a passkey to your account, second step: verifies and stores it',
  description: 'A response that does not verify (origin, challenge, signature) is invalid_argument on the field response.',
  tags: ME_TAGS,
  access: 'user',
  body: z.strictObject({ challengeId, response: RegistrationResponse, name: passkeyName.optional() }),
  responses: { 201: { description: 'The new passkey', schema: PasskeyView } },
  errors: ['unauthenticated', 'forbidden', 'conflict', 'limit_exceeded', 'unavailable'],
});

export const listPasskeys = defineEndpoint({
  method: 'get',
  path: '/api/me/passkeys',
  operationId: 'listPasskeys',
  summary: 'Your passkeys',
  tags: ME_TAGS,
  access: 'user',
  responses: { 200: { description: 'Oldest first', schema: z.object({ passkeys: z.array(PasskeyView) }) } },
  errors: ['unauthenticated', 'forbidden'],
});

export const deletePasskey = defineEndpoint({
  method: 'delete',
  path: '/api/me/passkeys/{id}',
  operationId: 'deletePasskey',
  summary: 'Remove one of your passkeys',
  description: 'Refused (conflict) when it is the only way left to sign in to the account.',
  tags: ME_TAGS,
  access: 'user',
  params: z.strictObject({ id: credentialId }),
  responses: { 204: { description: 'Removed' } },
  errors: ['unauthenticated', 'forbidden', 'not_found', 'conflict'],
});
