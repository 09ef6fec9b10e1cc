/** The voice call as the room's membership and permissions shape it. */
import type { IceServer } from '../../../settings/index.js';
import { StateSlice, type RoomCore } from '../core.js';
import { VoiceCall } from './voice.js';

/** Who is in the call (voice.ts), in memory only. */
export const VOICE = new StateSlice('voice call', () => new VoiceCall());

/** The runtime ICE servers plus the built-in STUN and TURN credentials for this user. */
export function iceServersFor(core: RoomCore, userId: string): IceServer[] {
  const external = core.deps.settings.get('webrtc.externalIceServers');
  return core.deps.iceServers ? core.deps.iceServers(userId, external) : structuredClone(external);
}

/**
 * Takes out of the voice call everyone who may no longer be in it: the connection that
 * joined has left (or expired), or they are no longer an active member with `use_webrtc`
 * (left, kicked, banned, role or overrides changed). Run by the voice part's hooks after every
 * such change.
 */
export function pruneVoice(core: RoomCore): void {
  const voice = VOICE.of(core);
  for (const userId of voice.userIds()) {
    const member = core.members.get(userId);
    const connectionId = voice.connectionOf(userId) ?? '';
    let reason: 'disconnected' | 'removed' | undefined;
    if (!member || member.status !== 'active') reason = 'removed';
    else if (!core.access({ userId, guest: member.guest }).permissions.has('use_webrtc')) reason = 'removed';
    else if (!core.presence.hasConnection(userId, connectionId)) reason = 'disconnected';
    if (reason && voice.leave(userId)) core.publish({ type: 'voice.left', userId, reason });
  }
}
