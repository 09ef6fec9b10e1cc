/**
 * RTMP stream keys: one per live playlist item and publisher (its holder), in
 * `live_stream_keys` (migrations 0008, 0010). A key publishes only while its holder may: the
 * ingest asks the room at publish time and again while the stream runs, so a co-host who is
 * kicked, banned or loses `publish_livestream` loses the key without anyone rotating it.
 *
 * Sealed at rest rather than hashed only: a publisher opens the room's live panel whenever
 * they set up OBS again, and a key shown only once would send them to rotate (and so cut a
 * running stream) just to read it. The SHA-256 beside the seal finds a publish's item without
 * opening every row. Who may read or rotate a key is the room's decision (`live.authorize`);
 * this module only stores.
 */
import { createHash, randomBytes } from 'node:crypto';
import type pg from 'pg';
import type { SecretBox } from '../../crypto/index.js';
import { AppError } from '../../errors/index.js';

/** Where a stream key publishes to. */
export interface StreamTarget {
  roomId: string;
  mediaId: string;
}

/** What a key publishes to, and whose it is. */
export interface KeyHolding extends StreamTarget {
  /** The holder's user id (the room member whose right to publish the key carries). */
  holder: string;
  /** False when the holder's account is banned (or gone): the key publishes nothing. */
  holderActive: boolean;
}

/** `sk_` and 32 base64url characters (192 bits): a valid RTMP stream name as node-media-server accepts it. */
const KEY_PATTERN = /^sk_[A-Za-z0-9_-]{32}$/;

function newKey(): string {
  return `sk_${randomBytes(24).toString('base64url')}`;
}

function hashOf(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

function context(target: StreamTarget): string {
  return `stream-key:${target.roomId}:${target.mediaId}`;
}

export class StreamKeys {
  constructor(
    private readonly pool: pg.Pool,
    private readonly box: SecretBox,
  ) {}

  /** `userId`'s key for the item, created on first use. */
  async current(target: StreamTarget, userId: string): Promise<string> {
    const { rows } = await this.pool.query<{ key_sealed: string }>(
      'SELECT key_sealed FROM live_stream_keys WHERE room_id = $1 AND media_id = $2 AND created_by = $3',
      [target.roomId, target.mediaId, userId],
    );
    const row = rows[0];
    if (row) return this.box.openText(row.key_sealed, context(target));
    // Two first reads racing: the second insert does nothing and both read the winner's key.
    await this.write(target, userId, 'ON CONFLICT (room_id, media_id, created_by) DO NOTHING');
    return this.current(target, userId);
  }

  /** Replaces `userId`'s key for the item; the old one stops working at once (publishes with it are ended by the ingest). */
  async rotate(target: StreamTarget, userId: string): Promise<string> {
    return this.write(
      target,
      userId,
      'ON CONFLICT (room_id, media_id, created_by) DO UPDATE SET key_hash = EXCLUDED.key_hash, key_sealed = EXCLUDED.key_sealed, created_at = now()',
    );
  }

  /** The item a key publishes to and its holder, or null for an unknown, rotated or revoked key. */
  async lookup(key: string): Promise<KeyHolding | null> {
    if (!KEY_PATTERN.test(key)) return null;
    const { rows } = await this.pool.query<{ room_id: string; media_id: string; created_by: string; active: boolean }>(
      `SELECT k.room_id, k.media_id, k.created_by, coalesce(u.state = 'active', false) AS active
         FROM live_stream_keys k LEFT JOIN users u ON u.id::text = k.created_by
        WHERE k.key_hash = $1`,
      [hashOf(key)],
    );
    const row = rows[0];
    return row ? { roomId: row.room_id, mediaId: row.media_id, holder: row.created_by, holderActive: row.active } : null;
  }

  private async write(target: StreamTarget, userId: string, onConflict: string): Promise<string> {
    const key = newKey();
    try {
      await this.pool.query(
        `INSERT INTO live_stream_keys (room_id, media_id, key_hash, key_sealed, created_by) VALUES ($1, $2, $3, $4, $5) ${onConflict}`,
        [target.roomId, target.mediaId, hashOf(key), this.box.seal(key, context(target)), userId],
      );
    } catch (err) {
      // The item left the playlist between the room's answer and this write.
      if ((err as { code?: string }).code === '23503') {
        throw new AppError('not_found', `media ${target.mediaId} is not in this room's playlist`, [], { cause: err });
      }
      throw err;
    }
    return key;
  }
}
