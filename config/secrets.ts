import { randomBytes } from 'node:crypto';
import { jwtSecretProblem } from './jwt-secret.js';
import { createOpaqueServerSetup } from './opaque-setup.js';

/** Fresh values for every startup secret; each passes validation. */
export interface GeneratedSecrets {
  'jwt.secret': string;
  'security.opaque_server_setup_secret': string;
  credential_encryption_key: string;
  'management.token': string;
}

export async function generateSecrets(): Promise<GeneratedSecrets> {
  return {
    'jwt.secret': generateJwtSecret(),
    'security.opaque_server_setup_secret': await createOpaqueServerSetup(),
    credential_encryption_key: randomBytes(32).toString('hex'),
    'management.token': randomBytes(32).toString('base64url'),
  };
}

/**
 * 48 random bytes as base64url (384 bits). The placeholder check could in principle match a
 * random string (about once in 10^9), so draw again rather than hand out a rejected secret.
 */
function generateJwtSecret(): string {
  for (;;) {
    const secret = randomBytes(48).toString('base64url');
    if (jwtSecretProblem(secret) === undefined) return secret;
  }
}
