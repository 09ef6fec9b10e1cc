import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';

/**
 * State held between two requests of one ceremony (an OPAQUE login, a second-factor step, a
 * WebAuthn challenge, an OAuth2 authorization), in Redis so the second request may land on any
 * gateway replica. Each entry lives under a random handle the client echoes back, expires on
 * its own (or under a name the ceremony already has), and is taken with GETDEL: the first request to take it spends it, whatever follows.
 */
export class OneTimeStore<T> {
  constructor(
    private readonly redis: Redis,
    /** Key prefix, for example `svc:opaque-login`. */
    private readonly prefix: string,
    private readonly ttlSeconds: number,
    /** Random bytes of a handle (base64url in the key and to the client). */
    private readonly handleBytes = 24,
  ) {}

  /** Stores the value and answers its handle. */
  async put(value: T): Promise<string> {
    const handle = randomBytes(this.handleBytes).toString('base64url');
    await this.redis.set(this.key(handle), JSON.stringify(value), 'EX', this.ttlSeconds);
    return handle;
  }

  /**
   * Stores the value under a handle the caller names (the username of a registration), so the
   * second request finds it without a handle of its own; a later put at the handle replaces it.
   */
  async putAt(handle: string, value: T): Promise<void> {
    await this.redis.set(this.key(handle), JSON.stringify(value), 'EX', this.ttlSeconds);
  }

  /** Reads the value without spending it; undefined when unknown or expired. */
  async peek(handle: string): Promise<T | undefined> {
    return parse<T>(await this.redis.get(this.key(handle)));
  }

  /** Takes the value once; undefined when unknown, expired or already taken. */
  async take(handle: string): Promise<T | undefined> {
    return parse<T>(await this.redis.getdel(this.key(handle)));
  }

  private key(handle: string): string {
    return `${this.prefix}:${handle}`;
  }
}

function parse<T>(raw: string | null): T | undefined {
  return raw === null ? undefined : (JSON.parse(raw) as T);
}
