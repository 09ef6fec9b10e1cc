/**
 * Two-factor authentication endpoints (`/api/auth/2fa/...`): TOTP enrolment, recovery codes,
 * and the second step of a sign-in that answered `second_factor_required`. Paths are fixed:
 * clients depend on them. A leaf module (zod and the error codes only).
 */
import { z } from 'zod';
import { oneLineText } from '../text.js';
import { fields, RECENT_SIGN_IN_RULE, recentSignInProof } from './account-fields.js';
import { SignedIn } from './sign-in-answers.js';
import { defineEndpoint } from './endpoint.js';

const TAGS = ['auth'];

/** Six digits from the authenticator app, or a recovery code (`xxxxx-xxxxx`; case, spaces and dashes ignored). */
const code = fields.code.meta({ description: 'A TOTP code (6 digits) or a recovery code (xxxxx-xxxxx).' });
const totpCode = fields.code.meta({ description: 'A TOTP code (6 digits) of the secret from setup.' });

const RecoveryCodes = z
  .object({
    recoveryCodes: z.array(z.string()).meta({ description: 'Shown this once: each signs in once in place of a TOTP code. Only their hashes are kept.' }),
  })
  .meta({ id: 'RecoveryCodes' });

export const totpSetup = defineEndpoint({
  method: 'post',
  path: '/api/auth/2fa/totp/setup',
  operationId: 'totpSetup',
  summary: 'Start TOTP enrolment: a new secret for the authenticator app',
  description: 'Replaces a secret that was set up but never enabled. Two-factor authentication is not on until POST /api/auth/2fa/totp/enable.',
  tags: TAGS,
  access: 'user',
  responses: {
    200: {
      description: 'The secret, and the same as an otpauth:// URL for a QR code',
      schema: z.object({ secret: z.string().meta({ description: 'Base32' }), otpauthUrl: z.string() }),
    },
  },
  errors: ['unauthenticated', 'forbidden', 'conflict'],
});

export const totpEnable = defineEndpoint({
  method: 'post',
  path: '/api/auth/2fa/totp/enable',
  operationId: 'totpEnable',
  summary: 'Turn two-factor authentication on with the first code of the new secret',
  description: `From then on every sign-in asks for a code. A wrong code is invalid_argument on the field code. ${RECENT_SIGN_IN_RULE}`,
  tags: TAGS,
  access: 'user',
  body: z.strictObject({ code: totpCode, ...recentSignInProof }),
  responses: { 200: { description: 'Enabled; the recovery codes', schema: RecoveryCodes } },
  errors: ['unauthenticated', 'forbidden', 'conflict', 'rate_limited'],
});

export const twoFactorDisable = defineEndpoint({
  method: 'post',
  path: '/api/auth/2fa/disable',
  operationId: 'twoFactorDisable',
  summary: 'Turn two-factor authentication off (removes the TOTP secret and the recovery codes)',
  tags: TAGS,
  access: 'user',
  body: z.strictObject({ code }),
  responses: { 204: { description: 'Disabled' } },
  errors: ['unauthenticated', 'forbidden', 'conflict', 'rate_limited'],
});

export const twoFactorVerify = defineEndpoint({
  method: 'post',
  path: '/api/auth/2fa/verify',
  operationId: 'twoFactorVerify',
  summary: 'Second step of a sign-in: exchange the challenge and a code for a session',
  description: 'Each TOTP code and each recovery code works once. A wrong code leaves the challenge valid until it expires.',
  tags: TAGS,
  access: 'public',
  body: z.strictObject({ challengeToken: oneLineText().min(1).max(128), code }),
  responses: { 200: { description: 'Signed in', schema: SignedIn } },
  errors: ['unauthenticated', 'account_banned', 'rate_limited'],
});

export const regenerateRecoveryCodes = defineEndpoint({
  method: 'post',
  path: '/api/auth/2fa/recovery-codes',
  operationId: 'regenerateRecoveryCodes',
  summary: 'Replace the recovery codes; the old ones stop working',
  tags: TAGS,
  access: 'user',
  body: z.strictObject({ code }),
  responses: { 200: { description: 'The new recovery codes', schema: RecoveryCodes } },
  errors: ['unauthenticated', 'forbidden', 'conflict', 'rate_limited'],
});
