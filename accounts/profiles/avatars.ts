import type { Queryable } from '../users.js';
import type { AvatarImages, AvatarSize } from './avatar-image.js';

/** The avatars table (postgres/migrations/0017_profiles.ts): at most one per user. */
export class Avatars {
  constructor(private readonly db: Queryable) {}

  async put(userId: string, images: AvatarImages): Promise<void> {
    await this.db.query(
      `INSERT INTO user_avatars (user_id, hash, large, small) VALUES ($1, $2, $3, $4)
       ON CONFLICT (user_id) DO UPDATE SET hash = EXCLUDED.hash, large = EXCLUDED.large, small = EXCLUDED.small, updated_at = now()`,
      [userId, images.hash, images.large, images.small],
    );
  }

  /** Whether there was one. */
  async remove(userId: string): Promise<boolean> {
    const { rowCount } = await this.db.query('DELETE FROM user_avatars WHERE user_id = $1', [userId]);
    return (rowCount ?? 0) > 0;
  }

  async hashOf(userId: string): Promise<string | undefined> {
    const { rows } = await this.db.query<{ hash: string }>('SELECT hash FROM user_avatars WHERE user_id = $1', [userId]);
    return rows[0]?.hash;
  }

  /** The bytes of one size, only while `hash` is the current version (a replaced avatar is gone). */
  async image(userId: string, hash: string, size: AvatarSize): Promise<Buffer | undefined> {
    const { rows } = await this.db.query<{ bytes: Buffer }>(`SELECT ${size === 'large' ? 'large' : 'small'} AS bytes FROM user_avatars WHERE user_id = $1 AND hash = $2`, [
      userId,
      hash,
    ]);
    return rows[0]?.bytes;
  }
}

/** The immutable URL of one version. */
export function avatarVersionUrl(userId: string, hash: string, size: AvatarSize): string {
  return `/media/avatars/${userId}/${hash}/${size}.webp`;
}
