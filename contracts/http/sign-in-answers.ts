/**
 * What every way of signing in answers: signed in (tokens and the user), a second factor still
 * to give, or a signup that waits for review. Shared by password, OPAQUE, passkeys, OAuth2 and
 * email sign-in, so a client handles one set of answers whatever the method.
 */
import { z } from 'zod';
import { UserView } from './user-view.js';

export const SignedIn = z
  .object({
    status: z.literal('signed_in'),
    accessToken: z.string().meta({ description: 'Bearer token for the Authorization header; short-lived.' }),
    tokenType: z.literal('Bearer'),
    expiresIn: z.number().int().meta({ description: 'Seconds until the access token expires.' }),
    refreshToken: z
      .string()
      .optional()
      .meta({ description: 'Only for native clients (header X-Svc-Client: native); browsers get it as an httpOnly cookie.' }),
    sessionId: z.string(),
    user: UserView.optional(),
    guest: z.object({ id: z.string(), displayName: z.string() }).optional(),
  })
  .meta({ id: 'SignedIn' });

export const SecondFactorRequired = z
  .object({
    status: z.literal('second_factor_required'),
    challengeToken: z.string().meta({ description: 'Send with a code to POST /api/auth/2fa/verify within 5 minutes.' }),
    methods: z.array(z.enum(['totp', 'recovery_code'])),
  })
  .meta({ id: 'SecondFactorRequired' });
export type SecondFactorRequired = z.infer<typeof SecondFactorRequired>;

export const PendingReview = z
  .object({ status: z.literal('pending_review'), reviewId: z.string() })
  .meta({ id: 'PendingReview', description: 'The signup waits for a reviewer; signing in says so until it is decided.' });

export const SignInAnswer = z.union([SignedIn, SecondFactorRequired]);
