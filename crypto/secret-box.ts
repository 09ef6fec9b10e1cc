import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { AppError } from '../errors/index.js';

/**
 * Encryption of secrets at rest that must be read back (TOTP secrets, provider tokens,
 * pending-review payloads): AES-256-GCM under `credential_encryption_key`.
 *
 * A sealed value is `v1.<keyId>.<iv>.<ciphertext+tag>` (base64url parts). The key id is a
 * hash prefix of the key, so after a rotation (new key first, old keys in
 * `credential_encryption_previous_keys`) old rows still open, and `reseal` moves them to the
 * current key. The associated data names what the value is (for example `totp:<userId>`), so
 * a ciphertext copied into another row or column does not decrypt there.
 */
const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

interface Key {
  id: string;
  bytes: Buffer;
}

export class SecretBox {
  private readonly current: Key;
  private readonly byId: Map<string, Key>;

  /** `keys`: hex keys of 32 bytes, the current one first. */
  constructor(keys: readonly string[]) {
    const parsed = keys.map(parseKey);
    const [current] = parsed;
    if (!current) throw new Error('SecretBox needs at least one key');
    this.current = current;
    this.byId = new Map(parsed.map((key) => [key.id, key]));
  }

  seal(plaintext: string | Buffer, context: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.current.bytes, iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const body = Buffer.concat([cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]);
    return [VERSION, this.current.id, iv.toString('base64url'), body.toString('base64url')].join('.');
  }

  open(sealed: string, context: string): Buffer {
    const [version, keyId, ivText, bodyText, ...rest] = sealed.split('.');
    if (version !== VERSION || !keyId || !ivText || !bodyText || rest.length > 0) {
      throw new AppError('internal', 'a stored secret is not in the sealed format');
    }
    const key = this.byId.get(keyId);
    if (!key) {
      throw new AppError('internal', `a stored secret is sealed with key ${keyId}, which is neither credential_encryption_key nor one of credential_encryption_previous_keys`);
    }
    const body = Buffer.from(bodyText, 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', key.bytes, Buffer.from(ivText, 'base64url'));
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
    try {
      return Buffer.concat([decipher.update(body.subarray(0, body.length - TAG_BYTES)), decipher.final()]);
    } catch (err) {
      throw new AppError('internal', 'a stored secret failed authentication (tampered, or sealed for another record)', [], { cause: err });
    }
  }

  openText(sealed: string, context: string): string {
    return this.open(sealed, context).toString('utf8');
  }

  /** Whether a sealed value is under an older key and should be re-sealed. */
  isStale(sealed: string): boolean {
    return sealed.split('.')[1] !== this.current.id;
  }
}

function parseKey(hex: string): Key {
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) throw new Error('a credential encryption key is 64 hexadecimal characters');
  const bytes = Buffer.from(hex, 'hex');
  return { id: createHash('sha256').update(bytes).digest('base64url').slice(0, 8), bytes };
}
