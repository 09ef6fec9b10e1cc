import { Algorithm, hash, verify } from '@node-rs/argon2';

/**
 * Argon2id with OWASP's first recommended parameter set (19 MiB memory, 2 passes, 1 lane):
 * about 30 ms per hash on one core here, which bounds direct-password sign-ins per core.
 */
export const ARGON2_PARAMS = { algorithm: Algorithm.Argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_PARAMS);
}

export async function verifyPassword(phc: string, password: string): Promise<boolean> {
  try {
    return await verify(phc, password);
  } catch {
    return false;
  }
}
