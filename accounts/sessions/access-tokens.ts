import { createHash } from 'node:crypto';
import { createDecoder, createSigner, createVerifier, TokenError } from 'fast-jwt';

/**
 * Short-lived access tokens: HS256 JWTs signed with `jwt.secret`. Each carries the key id of
 * the secret that signed it, so after a rotation (new secret in `jwt.secret`, the old one in
 * `jwt.previous_secrets`) tokens already handed out keep verifying until they expire.
 *
 * A token only proves who signed in and when; every request still checks that its session is
 * live and its user not banned (`SessionStore.resolve`), so a ban or logout takes effect on
 * the next request, not at expiry.
 *
 * Signed and verified with node:crypto, synchronously (fast-jwt). Every request and socket pays
 * a verify: through WebCrypto (jose) it cost 113-125 µs of CPU, here 5-17 µs
 * (docs/2026-11-30-crowds.md).
 */
export const ISSUER = 'svc';
export const AUDIENCE = 'svc-api';
const TYPE = 'at+jwt';

export interface AccessClaims {
  /** The user id, or `guest:<sessionId>` for a guest. */
  sub: string;
  sid: string;
  guest?: boolean;
}

type Verify = (token: string) => { sub?: unknown; sid?: unknown; guest?: unknown };

export class AccessTokens {
  private readonly signer: (payload: Record<string, unknown>) => string;
  /** One verifier per secret, by key id: the id in a token's header picks it. */
  private readonly verifiers: ReadonlyMap<string, Verify>;
  private readonly header = createDecoder({ complete: true, checkTyp: TYPE });

  constructor(
    secrets: { current: string; previous: readonly string[] },
    readonly ttlSeconds: number,
  ) {
    this.signer = createSigner({
      key: secrets.current,
      algorithm: 'HS256',
      kid: keyId(secrets.current),
      header: { alg: 'HS256', typ: TYPE },
      iss: ISSUER,
      aud: AUDIENCE,
      expiresIn: ttlSeconds * 1000,
    });
    this.verifiers = new Map(
      [secrets.current, ...secrets.previous].map((secret) => [
        keyId(secret),
        createVerifier({
          key: secret,
          algorithms: ['HS256'],
          allowedIss: ISSUER,
          allowedAud: AUDIENCE,
          checkTyp: TYPE,
          requiredClaims: ['exp', 'sub', 'sid'],
        }) as Verify,
      ]),
    );
  }

  sign(claims: AccessClaims): Promise<string> {
    return Promise.resolve(this.signer({ sub: claims.sub, sid: claims.sid, ...(claims.guest ? { guest: true } : {}) }));
  }

  /** The claims of a valid token, or undefined for anything else (bad signature, expired, unknown key). */
  verify(token: string): Promise<AccessClaims | undefined> {
    return Promise.resolve(this.claimsOf(token));
  }

  private claimsOf(token: string): AccessClaims | undefined {
    try {
      const { header } = this.header(token) as { header: { kid?: unknown } };
      const verify = typeof header.kid === 'string' ? this.verifiers.get(header.kid) : undefined;
      if (!verify) return undefined;
      const payload = verify(token);
      if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string') return undefined;
      return { sub: payload.sub, sid: payload.sid, ...(payload.guest === true ? { guest: true } : {}) };
    } catch (err) {
      if (err instanceof TokenError) return undefined;
      throw err;
    }
  }
}

/** A secret's id: a prefix of its hash, so a token names its key without revealing it. */
function keyId(secret: string): string {
  return createHash('sha256').update(secret).digest('base64url').slice(0, 12);
}
