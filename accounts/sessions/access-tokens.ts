import { createHash, webcrypto } from 'node:crypto';
import { errors, jwtVerify, SignJWT, type JWTPayload } from 'jose';

/**
 * Short-lived access tokens: HS256 JWTs signed with `jwt.secret`. Each carries the key id of
 * the secret that signed it, so after a rotation (new secret in `jwt.secret`, the old one in
 * `jwt.previous_secrets`) tokens already handed out keep verifying until they expire.
 *
 * A token only proves who signed in and when; every request still checks that its session is
 * live and its user not banned (`SessionStore.resolve`), so a ban or logout takes effect on
 * the next request, not at expiry.
 */
export const ISSUER = 'svc';
export const AUDIENCE = 'svc-api';

export interface AccessClaims {
  /** The user id, or `guest:<sessionId>` for a guest. */
  sub: string;
  sid: string;
  guest?: boolean;
}

interface SigningKey {
  id: string;
  /**
   * Imported once: jose imports a raw secret into WebCrypto on every sign and verify, which was
   * about a third of verifying a token (measured in a join storm, docs/2026-11-30-crowds.md).
   */
  key: Promise<webcrypto.CryptoKey>;
}

export class AccessTokens {
  private readonly signing: SigningKey;
  private readonly byId: Map<string, SigningKey>;

  constructor(
    secrets: { current: string; previous: readonly string[] },
    readonly ttlSeconds: number,
  ) {
    this.signing = signingKey(secrets.current);
    this.byId = new Map([this.signing, ...secrets.previous.map(signingKey)].map((key) => [key.id, key]));
  }

  async sign(claims: AccessClaims): Promise<string> {
    return new SignJWT({ sid: claims.sid, ...(claims.guest ? { guest: true } : {}) })
      .setProtectedHeader({ alg: 'HS256', kid: this.signing.id, typ: 'at+jwt' })
      .setSubject(claims.sub)
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt()
      .setExpirationTime(`${this.ttlSeconds}s`)
      .sign(await this.signing.key);
  }

  /** The claims of a valid token, or undefined for anything else (bad signature, expired, unknown key). */
  async verify(token: string): Promise<AccessClaims | undefined> {
    try {
      const { payload } = await jwtVerify<JWTPayload & { sid?: unknown; guest?: unknown }>(
        token,
        (header) => {
          const key = header.kid === undefined ? undefined : this.byId.get(header.kid);
          if (!key) throw new errors.JWKSNoMatchingKey();
          return key.key;
        },
        { issuer: ISSUER, audience: AUDIENCE, algorithms: ['HS256'], typ: 'at+jwt' },
      );
      if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string') return undefined;
      return { sub: payload.sub, sid: payload.sid, ...(payload.guest === true ? { guest: true } : {}) };
    } catch (err) {
      if (err instanceof errors.JOSEError) return undefined;
      throw err;
    }
  }
}

function signingKey(secret: string): SigningKey {
  const raw = new TextEncoder().encode(secret);
  const key = webcrypto.subtle.importKey('raw', raw, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
  return { id: createHash('sha256').update(raw).digest('base64url').slice(0, 12), key };
}
