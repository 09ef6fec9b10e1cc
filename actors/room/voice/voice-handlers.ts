/**
 * The room's voice call: joining and leaving, muting, and relaying WebRTC signalling (offers,
 * answers, ICE candidates) from one participant to another. The room only relays: media
 * flows browser to browser (a full mesh), through TURN when a direct path fails. Everything
 * needs `use_webrtc`; a `voice.signal` event is delivered to its addressee alone. `webrtc.join`
 * hands out the ICE servers alone (for a call the client runs itself).
 */
import { AppError } from '../../../errors/index.js';
import type { RoomCommandOf } from '../../../contracts/room/commands.js';
import type { RoomCore, Turn } from '../core.js';
import type { VoiceParticipant } from '../../../contracts/room/model.js';
import type { MemberRecord } from '../records.js';
import type { RoomResults } from '../../../contracts/room/results.js';
import { VOICE, iceServersFor } from './voice-room.js';

export const DEFAULT_VOICE_MAX_PARTICIPANTS = 8;

function participantOf(core: RoomCore, turn: Turn, action: string): VoiceParticipant {
  core.require(turn.access, 'use_webrtc', action);
  const participant = VOICE.of(core).participant(turn.access.userId);
  if (!participant) throw new AppError('conflict', `${action} needs you in the voice call: send voice.join first`);
  return participant;
}

export function joinVoice(core: RoomCore, command: RoomCommandOf<'voice.join'>, turn: Turn): Promise<RoomResults['voice.join']> {
  const { access } = turn;
  core.require(access, 'use_webrtc', 'joining the voice call');
  if (access.service) throw new AppError('forbidden', 'a service caller cannot join a voice call');
  const { connectionId } = command;
  if (connectionId === undefined) {
    throw AppError.invalid([{ key: 'connectionId', message: 'is required: voice is joined over a realtime connection (WebSocket), which sets it' }]);
  }
  const member = access.member as MemberRecord;
  if (!core.presence.hasConnection(member.userId, connectionId)) {
    throw new AppError('conflict', 'this connection is not in the room (presence); reconnect and join again');
  }
  const voice = VOICE.of(core);
  const existing = voice.participant(member.userId);
  if (existing) {
    // A second join (a reconnect, another tab) moves the seat to this connection; nobody else needs to know.
    const muted = command.muted ?? existing.muted;
    voice.join({ ...existing, muted }, connectionId);
    if (muted !== existing.muted) core.publish({ type: 'voice.muted', userId: member.userId, muted });
  } else {
    const cap = core.deps.voiceMaxParticipants ?? DEFAULT_VOICE_MAX_PARTICIPANTS;
    if (voice.size >= cap) {
      throw new AppError('limit_exceeded', `the voice call is full: ${cap} participants at most (voice.max_participants)`);
    }
    const participant: VoiceParticipant = { userId: member.userId, name: member.name, muted: command.muted ?? false, joinedAt: turn.now };
    voice.join(participant, connectionId);
    core.publish({ type: 'voice.joined', participant });
  }
  return Promise.resolve({ iceServers: iceServersFor(core, member.userId), participants: voice.participants() });
}

export function leaveVoice(core: RoomCore, _command: RoomCommandOf<'voice.leave'>, turn: Turn): Promise<RoomResults['voice.leave']> {
  const { userId } = turn.access;
  // Leaving needs no permission: someone who lost use_webrtc was taken out already.
  const left = VOICE.of(core).leave(userId);
  if (left) core.publish({ type: 'voice.left', userId, reason: 'left' });
  return Promise.resolve({ left });
}

export function muteVoice(core: RoomCore, command: RoomCommandOf<'voice.mute'>, turn: Turn): Promise<RoomResults['voice.mute']> {
  const current = participantOf(core, turn, 'muting');
  if (current.muted === command.muted) return Promise.resolve({ participant: current });
  const participant = VOICE.of(core).setMuted(current.userId, command.muted)!;
  core.publish({ type: 'voice.muted', userId: participant.userId, muted: participant.muted });
  return Promise.resolve({ participant });
}

/** `value` without its undefined keys: the event's types are WebRTC's init dictionaries, which have no undefined. */
function definedOnly<T extends object>(value: T): { [K in keyof T]: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as { [K in keyof T]: Exclude<T[K], undefined> };
}

export function relaySignal(core: RoomCore, command: RoomCommandOf<'voice.signal'>, turn: Turn): Promise<RoomResults['voice.signal']> {
  const from = participantOf(core, turn, 'signalling').userId;
  const hasDescription = command.description !== undefined;
  const hasCandidate = command.candidate !== undefined;
  if (hasDescription === hasCandidate) {
    throw AppError.invalid([{ key: hasDescription ? 'candidate' : 'description', message: 'give exactly one of description and candidate' }]);
  }
  if (command.to === from) throw AppError.invalid([{ key: 'to', message: 'is yourself; signal another participant' }]);
  if (!VOICE.of(core).has(command.to)) throw new AppError('not_found', `${command.to} is not in the voice call`);
  core.publish({
    type: 'voice.signal',
    from,
    to: command.to,
    ...(hasDescription ? { description: definedOnly(command.description!) } : { candidate: command.candidate ? definedOnly(command.candidate) : null }),
  });
  return Promise.resolve({ delivered: true as const });
}

export function joinWebrtc(core: RoomCore, _command: RoomCommandOf<'webrtc.join'>, turn: Turn): Promise<RoomResults['webrtc.join']> {
  core.require(turn.access, 'use_webrtc', 'joining voice and video');
  return Promise.resolve({ iceServers: iceServersFor(core, turn.access.userId) });
}
