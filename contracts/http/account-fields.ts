/**
 * Request fields the account resources share (username, display name, passwords, OPAQUE
 * messages, codes) and the recent-sign-in proof that adding a way in or a second factor needs.
 */
import { z } from 'zod';
import { PASSWORD_MAX_CHARS, PASSWORD_MIN_CHARS, USERNAME_NFKC_RULE, USERNAME_RULE, usernameInput, usernamePattern } from '../account-rules.js';
import { isWellFormed, oneLineText, privateText, WELL_FORMED_MESSAGE } from '../text.js';

/**
 * Unpadded base64url of exactly `bytes` bytes: the characters, the length, and a last character
 * whose unused low bits are zero (the decoder refuses any other), so the pattern admits exactly
 * the strings that decode to that many bytes.
 */
function opaqueMessage(bytes: number, description: string): z.ZodString {
  const full = Math.floor(bytes / 3) * 4;
  const tail = bytes % 3 === 0 ? '' : bytes % 3 === 1 ? '[A-Za-z0-9_-][AQgw]' : '[A-Za-z0-9_-]{2}[AEIMQUYcgkosw048]';
  const length = full + (bytes % 3 === 0 ? 0 : bytes % 3 + 1);
  return z
    .string()
    .regex(new RegExp(`^[A-Za-z0-9_-]{${full}}${tail}$`), { error: `must be ${bytes} bytes in unpadded base64url (${length} characters)` })
    .meta({ description: `${description}: ${bytes} bytes in unpadded base64url (${length} characters)` });
}

// Every text field here follows contracts/text.ts, so nothing PostgreSQL refuses (NUL) or a log
// would mangle reaches either, on HTTP or on gRPC (which validates with these same schemas).
// The account code's own rule, checked as sent (so a name the server would refuse is refused
// here, and the document's pattern is the rule): no control character or NUL can match it.
// The pattern is computed from Unicode tables on first use (account-rules.ts), so it is checked
// in a refinement and written into the document when the document is built.
const username = z
  .string()
  .refine((value) => usernameInput().test(value), { error: `must be ${USERNAME_RULE}` })
  .meta({
    id: 'Username',
    description: `${USERNAME_RULE}; ${USERNAME_NFKC_RULE}. Trimmed and NFKC-normalised by the server, compared case-insensitively`,
    override: ({ jsonSchema }: { jsonSchema: Record<string, unknown> }) => {
      jsonSchema.pattern = usernamePattern();
    },
  });
export const fields = {
  username,
  displayName: oneLineText().min(1).max(64),
  password: privateText().min(1).max(1024),
  /**
   * A direct-transport password being set: the account code's length rule (in code points, so
   * in the pattern: zod's min/max count UTF-16 units), no NUL. Signing in takes any password (but NUL).
   */
  newPassword: z
    .string()
    .regex(new RegExp(`^[^\\u0000]{${PASSWORD_MIN_CHARS},${PASSWORD_MAX_CHARS}}$`, 'u'), { error: `must be ${PASSWORD_MIN_CHARS} to ${PASSWORD_MAX_CHARS} characters, without NUL` })
    .refine(isWellFormed, { error: WELL_FORMED_MESSAGE }),
  /**
   * OPAQUE (RFC 9807, ristretto255) messages: unpadded base64url of their fixed length, as the
   * protocol library decodes them. Whether they are points of the group and belong to a login
   * the server started is for the protocol to say: a well-formed value is not yet a valid one.
   */
  opaqueMessage: {
    registrationRequest: opaqueMessage(32, 'The client\'s first registration message (opaque.client.startRegistration)'),
    registrationRecord: opaqueMessage(192, 'The registration record (opaque.client.finishRegistration): the credential the server stores'),
    startLoginRequest: opaqueMessage(96, 'The client\'s first login message, KE1 (opaque.client.startLogin)'),
    finishLoginRequest: opaqueMessage(64, 'The client\'s last login message, KE3 (opaque.client.finishLogin)'),
  },
  /** A code from an email or an authenticator app, a handle the server gave (challenge, login id). */
  code: oneLineText().min(1).max(32),
};

/**
 * What adding a way in or a second factor needs besides the access token
 * (accounts/recent-sign-in.ts): a sign-in within the last 10 minutes, or the current
 * password of an account with a direct-transport password.
 */
export const recentSignInProof = {
  currentPassword: fields.password.optional().meta({ description: 'For an account with a direct-transport (argon2) password: proves a recent sign-in' }),
};
export const RECENT_SIGN_IN_RULE =
  'Needs a recent sign-in: the session signed in within the last 10 minutes, or an account with a direct-transport password sends currentPassword. Otherwise unauthenticated ("sign in again to ..."); a wrong currentPassword is unauthenticated on that field.';
