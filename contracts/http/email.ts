/**
 * Signup by email and password reset by emailed code (`/api/auth/email/...`,
 * `/api/auth/password/reset/...`). A leaf module (zod and the error codes only).
 *
 * Setting a password takes either `password` (direct transport) or `registrationRecord`
 * (OPAQUE: the client first gets the server's message from the matching `.../opaque` endpoint).
 */
import { z } from 'zod';
import { oneLineText } from '../text.js';
import { fields } from './account-fields.js';
import { PendingReview, SignedIn } from './sign-in-answers.js';
import { defineEndpoint } from './endpoint.js';

const TAGS = ['auth'];
// 254: the longest address SMTP carries, as the account code refuses longer ones.
const email = oneLineText().min(1).max(254).meta({ format: 'email', description: 'An email address, compared case-insensitively' });
const code = fields.code.meta({ description: 'The code from the email' });
const newPassword = {
  password: fields.newPassword.optional(),
  registrationRecord: fields.opaqueMessage.registrationRecord.optional(),
};
const CodeSent = z
  .object({ status: z.literal('code_sent'), expiresAt: z.string().meta({ format: 'date-time' }) })
  .meta({ id: 'CodeSent', description: 'An email with a code is on its way (or, for an address with an account, a note saying so)' });
const RegistrationResponse = z.object({ registrationResponse: z.string() });
/** What the two operations that send email say about a server without SMTP. */
const WITHOUT_SMTP =
  'On a server without email (no smtp.host): failed_precondition (409), "email is not configured on this server", before anything is checked or written. An SMTP server that fails or refuses the message: unavailable (503).';

export const emailSignupStart = defineEndpoint({
  method: 'post',
  path: '/api/auth/email/signup/start',
  operationId: 'emailSignupStart',
  summary: 'Email signup: sends a confirmation code to the address',
  description: `Needs user.enableEmailSignup (signup_disabled otherwise). ${WITHOUT_SMTP}`,
  tags: TAGS,
  access: 'public',
  body: z.strictObject({ email, username: fields.username, displayName: fields.displayName.optional() }),
  responses: { 202: { description: 'Code sent', schema: CodeSent } },
  errors: ['signup_disabled', 'failed_precondition', 'forbidden', 'conflict', 'rate_limited', 'unavailable'],
});

export const emailSignupOpaque = defineEndpoint({
  method: 'post',
  path: '/api/auth/email/signup/opaque',
  operationId: 'emailSignupOpaque',
  summary: 'Email signup: the OPAQUE registration message, for a client holding the code',
  tags: TAGS,
  access: 'public',
  body: z.strictObject({ email, code, registrationRequest: fields.opaqueMessage.registrationRequest }),
  responses: { 200: { description: 'The server registration response', schema: RegistrationResponse } },
  errors: ['signup_disabled', 'forbidden', 'unauthenticated', 'rate_limited'],
});

export const emailSignupConfirm = defineEndpoint({
  method: 'post',
  path: '/api/auth/email/signup/confirm',
  operationId: 'emailSignupConfirm',
  summary: 'Email signup: the code and the password create the account or file it for review',
  description: 'The address must still be on the allowlist (email.whitelistDomains): forbidden otherwise, and the code stays unused.',
  tags: TAGS,
  access: 'public',
  body: z.strictObject({ email, code, ...newPassword }),
  responses: {
    201: { description: 'Account created and signed in', schema: SignedIn },
    202: { description: 'Account filed for review', schema: PendingReview },
  },
  errors: ['signup_disabled', 'forbidden', 'unauthenticated', 'conflict', 'rate_limited'],
});

export const passwordResetStart = defineEndpoint({
  method: 'post',
  path: '/api/auth/password/reset/start',
  operationId: 'passwordResetStart',
  summary: 'Password reset: emails a code to the address of an account',
  description: `Answers the same whether or not the address has an account. ${WITHOUT_SMTP}`,
  tags: TAGS,
  access: 'public',
  body: z.strictObject({ email }),
  responses: { 202: { description: 'Code sent if the address has an account', schema: CodeSent } },
  errors: ['failed_precondition', 'rate_limited', 'unavailable'],
});

export const passwordResetOpaque = defineEndpoint({
  method: 'post',
  path: '/api/auth/password/reset/opaque',
  operationId: 'passwordResetOpaque',
  summary: 'Password reset: the OPAQUE registration message, for a client holding the code',
  tags: TAGS,
  access: 'public',
  body: z.strictObject({ email, code, registrationRequest: fields.opaqueMessage.registrationRequest }),
  responses: { 200: { description: 'The server registration response', schema: RegistrationResponse } },
  errors: ['unauthenticated', 'rate_limited'],
});

export const passwordResetFinish = defineEndpoint({
  method: 'post',
  path: '/api/auth/password/reset/finish',
  operationId: 'passwordResetFinish',
  summary: 'Password reset: sets the new password and signs out every session',
  tags: TAGS,
  access: 'public',
  body: z.strictObject({ email, code, ...newPassword }),
  responses: { 204: { description: 'Password set; sign in with it' } },
  errors: ['unauthenticated', 'rate_limited'],
});
