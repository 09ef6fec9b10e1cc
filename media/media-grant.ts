/**
 * Signed grants in media URLs. A browser's media element cannot send a bearer token, so every
 * URL this service hands out for media (proxied files, HLS playlists and segments, livestream
 * playback) carries a grant: who (user, and the session that asked) may read what (room, item,
 * and the resource within it) until when, sealed with an HMAC. A grant for one user, item or
 * resource does not verify for another, and none verifies after `expiresAt`. The gateways also
 * refuse a grant whose session has ended (gateways/media/grant-sessions.ts), so a sign-out or
 * ban stops playback long before the grant expires.
 */
import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { AppError } from '../errors/index.js';

export interface MediaGrant {
  roomId: string;
  userId: string;
  /** The session the link was handed to: the link works only while it is live. */
  sessionId: string;
  mediaId: string;
  /**
   * What within the item: '' for the item itself, or a sub-resource such as an HLS segment's
   * upstream URL or a livestream's file name. The proxy fetches only what a grant names.
   */
  resource: string;
  /** ms since the epoch. */
  expiresAt: number;
}

/** The signing key, derived from the credential encryption key so no new secret has to be configured. */
export function mediaGrantKey(credentialEncryptionKey: string): Buffer {
  return Buffer.from(hkdfSync('sha256', Buffer.from(credentialEncryptionKey, 'hex'), Buffer.alloc(0), 'svc media url grants', 32));
}

export class MediaGrants {
  constructor(private readonly key: Buffer) {}

  /** A URL-safe token (base64url payload, ".", base64url MAC). */
  sign(grant: MediaGrant): string {
    const payload = Buffer.from(
      JSON.stringify([grant.roomId, grant.userId, grant.mediaId, grant.resource, Math.floor(grant.expiresAt / 1000), grant.sessionId]),
    ).toString('base64url');
    return `${payload}.${this.mac(payload)}`;
  }

  /** The grant a token carries; `forbidden` when it is forged, damaged or expired. */
  verify(token: string, now = Date.now()): MediaGrant {
    const dot = token.indexOf('.');
    if (dot <= 0) throw new AppError('forbidden', 'the media link is damaged');
    const payload = token.slice(0, dot);
    const given = Buffer.from(token.slice(dot + 1), 'base64url');
    const expected = Buffer.from(this.mac(payload), 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      throw new AppError('forbidden', 'the media link is not valid');
    }
    const fields: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    // Links from before grants named a session (five fields) are refused: the player asks the room for new ones.
    if (!Array.isArray(fields) || fields.length !== 6) throw new AppError('forbidden', 'the media link is damaged or outdated; ask the room for a new one');
    const [roomId, userId, mediaId, resource, expSeconds, sessionId] = fields as [string, string, string, string, number, string];
    const grant: MediaGrant = { roomId, userId, sessionId, mediaId, resource, expiresAt: expSeconds * 1000 };
    if (grant.expiresAt <= now) throw new AppError('forbidden', 'the media link has expired; ask the room for a new one');
    return grant;
  }

  private mac(payload: string): string {
    return createHmac('sha256', this.key).update(payload).digest('base64url');
  }
}
