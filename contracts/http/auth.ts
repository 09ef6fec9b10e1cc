/**
 * The sign-in and session endpoints (`/api/auth/...`). Paths are fixed: clients and checks
 * depend on them. A leaf module (zod and the error codes only).
 */
import { z } from 'zod';
import { oneLineText } from '../text.js';
import { defineEndpoint, type ResponseSpec } from './endpoint.js';
import { fields } from './account-fields.js';
import { PendingReview, SignedIn, SignInAnswer } from './sign-in-answers.js';

const SIGNED_IN: ResponseSpec = { description: 'Signed in, or a second factor is required', schema: SignInAnswer };
const CREATED: ResponseSpec = { description: 'Account created and signed in', schema: SignedIn };
const PENDING: ResponseSpec = { description: 'Account filed for review', schema: PendingReview };
const TAGS = ['auth'];

export const opaqueRegisterStart = defineEndpoint({
  method: 'post',
  path: '/api/auth/opaque/register/start',
  operationId: 'opaqueRegisterStart',
  summary: 'OPAQUE registration, first message',
  tags: TAGS,
  access: 'public',
  body: z.strictObject({ username: fields.username, registrationRequest: fields.opaqueMessage.registrationRequest }),
  responses: { 200: { description: 'The server registration response', schema: z.object({ registrationResponse: z.string() }) } },
  errors: ['signup_disabled', 'rate_limited'],
});

export const opaqueRegisterFinish = defineEndpoint({
  method: 'post',
  path: '/api/auth/opaque/register/finish',
  operationId: 'opaqueRegisterFinish',
  summary: 'OPAQUE registration, record upload: creates the account or files it for review',
  description: 'Finishes the register/start of the same username, once and within 5 minutes (unauthenticated otherwise). The record must be a well-formed OPAQUE registration record.',
  tags: TAGS,
  access: 'public',
  body: z.strictObject({ username: fields.username, registrationRecord: fields.opaqueMessage.registrationRecord, displayName: fields.displayName.optional() }),
  responses: { 201: CREATED, 202: PENDING },
  errors: ['signup_disabled', 'unauthenticated', 'conflict', 'rate_limited'],
});

export const opaqueLoginStart = defineEndpoint({
  method: 'post',
  path: '/api/auth/opaque/login/start',
  operationId: 'opaqueLoginStart',
  summary: 'OPAQUE login, first message',
  description:
    'Answers the same way for unknown usernames and accounts with an OPAQUE record (a fake record for the former). An account whose password is still only an Argon2id hash (set before OPAQUE records were made for it) is answered with useDirectPassword: true; the client then signs in once with POST /api/auth/password/login, which upgrades the account to OPAQUE.',
  tags: TAGS,
  access: 'public',
  body: z.strictObject({ username: fields.username, startLoginRequest: fields.opaqueMessage.startLoginRequest }),
  responses: {
    200: {
      description: 'Login response and the id of the server state',
      schema: z.object({
        loginId: z.string(),
        loginResponse: z.string(),
        useDirectPassword: z
          .literal(true)
          .optional()
          .meta({ description: 'Present only for an account without an OPAQUE record yet: sign in with the direct password transport, which upgrades it.' }),
      }),
    },
  },
  errors: ['rate_limited'],
});

export const opaqueLoginFinish = defineEndpoint({
  method: 'post',
  path: '/api/auth/opaque/login/finish',
  operationId: 'opaqueLoginFinish',
  summary: 'OPAQUE login, client proof: opens a session',
  tags: TAGS,
  access: 'public',
  body: z.strictObject({ loginId: oneLineText().min(1).max(64), finishLoginRequest: fields.opaqueMessage.finishLoginRequest }),
  responses: { 200: SIGNED_IN },
  errors: ['unauthenticated', 'review_pending', 'review_rejected', 'account_banned', 'rate_limited'],
});

export const passwordRegister = defineEndpoint({
  method: 'post',
  path: '/api/auth/password/register',
  operationId: 'passwordRegister',
  summary: 'Direct password signup (for clients that cannot run OPAQUE)',
  tags: TAGS,
  access: 'public',
  body: z.strictObject({ username: fields.username, password: fields.newPassword, displayName: fields.displayName.optional() }),
  responses: { 201: CREATED, 202: PENDING },
  errors: ['signup_disabled', 'conflict', 'rate_limited'],
});

export const passwordLogin = defineEndpoint({
  method: 'post',
  path: '/api/auth/password/login',
  operationId: 'passwordLogin',
  summary: 'Direct password sign-in',
  description: 'Checks the password against the account\'s OPAQUE record (the server runs OPAQUE itself) or its Argon2id hash; an Argon2id account is upgraded to an OPAQUE record by a successful sign-in.',
  tags: TAGS,
  access: 'public',
  body: z.strictObject({ username: fields.username, password: fields.password }),
  bodyExamples: { alice: { username: 'alice', password: 'correct horse battery staple' } },
  responses: { 200: SIGNED_IN },
  errors: ['unauthenticated', 'review_pending', 'review_rejected', 'account_banned', 'rate_limited'],
});

export const guestSignIn = defineEndpoint({
  method: 'post',
  path: '/api/auth/guest',
  operationId: 'guestSignIn',
  summary: 'A guest session, for rooms that admit guests (runtime setting user.enableGuest)',
  tags: TAGS,
  access: 'public',
  body: z.strictObject({ displayName: fields.displayName }),
  bodyExamples: { guest: { displayName: 'Sam' } },
  responses: { 200: { description: 'Guest session', schema: SignedIn } },
  errors: ['forbidden', 'rate_limited'],
});

export const refreshSession = defineEndpoint({
  method: 'post',
  path: '/api/auth/refresh',
  operationId: 'refreshSession',
  summary: 'Exchange the refresh token (cookie, or body for native clients) for new tokens',
  description: 'Each refresh token works once. Presenting a used one revokes the whole session.',
  tags: TAGS,
  access: 'public',
  body: z.strictObject({ refreshToken: oneLineText().min(1).max(256).optional() }).optional(),
  responses: { 200: { description: 'New tokens', schema: SignedIn } },
  errors: ['unauthenticated'],
});

export const logout = defineEndpoint({
  method: 'post',
  path: '/api/auth/logout',
  operationId: 'logout',
  summary: 'End the current session',
  tags: TAGS,
  access: 'user_or_guest',
  responses: { 204: { description: 'Signed out' } },
  errors: ['unauthenticated'],
});

export const SessionView = z
  .object({
    id: z.string(),
    method: z.string(),
    userAgent: z.string().nullable(),
    ip: z.string().nullable(),
    createdAt: z.string().meta({ format: 'date-time' }),
    lastUsedAt: z.string().meta({ format: 'date-time' }),
    expiresAt: z.string().meta({ format: 'date-time' }),
    current: z.boolean(),
  })
  .meta({ id: 'Session' });

export const listSessions = defineEndpoint({
  method: 'get',
  path: '/api/auth/sessions',
  operationId: 'listSessions',
  summary: "The signed-in user's live sessions",
  tags: TAGS,
  access: 'user',
  responses: { 200: { description: 'Sessions, most recently used first', schema: z.object({ sessions: z.array(SessionView) }) } },
  errors: ['unauthenticated'],
});

export const revokeSession = defineEndpoint({
  method: 'delete',
  path: '/api/auth/sessions/{sessionId}',
  operationId: 'revokeSession',
  summary: 'Sign one of your sessions out',
  tags: TAGS,
  access: 'user',
  params: z.strictObject({ sessionId: oneLineText().min(1).max(64) }),
  responses: { 204: { description: 'Revoked' } },
  errors: ['unauthenticated', 'not_found'],
});

export const logoutEverywhere = defineEndpoint({
  method: 'post',
  path: '/api/auth/logout-all',
  operationId: 'logoutEverywhere',
  summary: 'Sign every session of the user out, this one included',
  tags: TAGS,
  access: 'user',
  responses: { 200: { description: 'How many sessions ended', schema: z.object({ revoked: z.number().int() }) } },
  errors: ['unauthenticated'],
});
