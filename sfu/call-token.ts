/**
 * The access token a member opens one of the room's SFU rooms with (LiveKit's JWT): this room's
 * stage or call only (room-name.ts), as their user or guest id, with exactly the sources the room
 * admitted for it (call.admit). No data
 * channel (chat and reactions go through the room, where moderation and history are), and a
 * short life: it only opens the call; a connected call stays up, and LiveKit refreshes the
 * token of a connected participant itself.
 */
import { createHash } from 'node:crypto';
import type { CallSource } from '../contracts/room/model.js';
import { livekit } from './livekit.js';
import type { SfuConfig } from './sfu-config.js';
import { trackSourceOf } from './sources.js';
import { sfuRoomName, type SfuPart } from './room-name.js';

/** Five minutes: long enough to open the call from a slow page, short enough that a leaked one dies soon. */
export const CALL_TOKEN_TTL_S = 300;

/** The participant attributes the warden reads to find a revoked session's participants (call-warden.ts). */
export const SESSION_ATTRIBUTE = 'svc.session';
export const GUEST_ATTRIBUTE = 'svc.guest';

export interface CallTokenRequest {
  roomId: string;
  part: SfuPart;
  /** The member's user or guest id: their participant identity. */
  identity: string;
  /** Their name in the room. */
  name: string;
  sources: readonly CallSource[];
  /** The session that asked, remembered as a digest so its sign-out ends the call (never the id itself: others see attributes). */
  sessionId: string;
  guest: boolean;
}

export interface CallToken {
  token: string;
  /** Epoch ms. */
  expiresAt: number;
}

/** A digest of a session id, as a participant's attribute carries it. */
export function sessionDigest(sessionId: string): string {
  return createHash('sha256').update(sessionId).digest('base64url').slice(0, 22);
}

export async function signCallToken(sfu: SfuConfig, request: CallTokenRequest): Promise<CallToken> {
  const { AccessToken } = await livekit();
  const token = new AccessToken(sfu.apiKey, sfu.apiSecret, {
    identity: request.identity,
    name: request.name,
    ttl: CALL_TOKEN_TTL_S,
    attributes: { [SESSION_ATTRIBUTE]: sessionDigest(request.sessionId), ...(request.guest ? { [GUEST_ATTRIBUTE]: '1' } : {}) },
  });
  token.addGrant({
    roomJoin: true,
    room: sfuRoomName(sfu.prefix, request.roomId, request.part),
    canSubscribe: true,
    // Set even when empty: without canPublishSources LiveKit would allow every source.
    canPublish: request.sources.length > 0,
    canPublishSources: request.sources.map(trackSourceOf),
    canPublishData: false,
    canUpdateOwnMetadata: false,
  });
  const jwt = await token.toJwt();
  return { token: jwt, expiresAt: expiryOf(jwt) };
}

/** The JWT's `exp` in epoch ms: jose sets it from the clock as it signs, in whole seconds. */
function expiryOf(jwt: string): number {
  const payload = JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString('utf8')) as { exp?: unknown };
  if (typeof payload.exp !== 'number') throw new Error('the signed call token has no exp');
  return payload.exp * 1000;
}
