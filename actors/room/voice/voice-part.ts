/**
 * The voice call's part (docs/2026-11-23-webrtc-voice.md): its seats in memory, its commands, the
 * participants in the views of those holding use_webrtc, and pruning: whenever who may be in
 * the call can change (a connection gone, a member removed, a role, permissions or the room's
 * overrides changed), seats that no longer qualify are ended.
 */
import { roomPart } from '../part.js';
import { joinVoice, joinWebrtc, leaveVoice, muteVoice, relaySignal } from './voice-handlers.js';
import { VOICE, pruneVoice } from './voice-room.js';

export const voicePart = roomPart({
  name: 'voice',
  state: [VOICE],
  handlers: {
    'voice.join': joinVoice,
    'voice.leave': leaveVoice,
    'voice.mute': muteVoice,
    'voice.signal': relaySignal,
    'webrtc.join': joinWebrtc,
  },
  view: (core, access) => (access.permissions.has('use_webrtc') ? { voice: VOICE.of(core).participants() } : {}),
  memberRemoved: pruneVoice,
  memberChanged: pruneVoice,
  roomChanged: pruneVoice,
  presenceChanged: (core, _userId, change) => {
    // Someone coming online takes no seat away; a connection going may be the one that joined.
    if (change !== 'online') pruneVoice(core);
  },
  deleted: (core) => VOICE.of(core).clear(),
});
