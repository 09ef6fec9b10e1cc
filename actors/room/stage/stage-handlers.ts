/**
 * The stage and the call's admission (docs/2026-11-29-sfu.md). `stage.start` puts the caller's
 * screen on the stage (share_screen; an SFU; at most sfu.maxSharesPerRoom at once; within the
 * room's bandwidth) and, unless they keep it playing, pauses the synced item as a playback change
 * everyone sees. `stage.stop` ends one's own share, or anyone's with manage_members.
 * `call.admit` (gateway-owned: the call endpoint signs an SFU token from its answer) says what
 * the caller may publish in one of the room's two SFU rooms: the stage (every member; their
 * screen while they hold a share) or the call (use_webrtc; microphone and camera);
 * `call.mute` mutes someone's microphone in the SFU (manage_members).
 */
import { AppError } from '../../../errors/index.js';
import type { RoomCommandOf } from '../../../contracts/room/commands.js';
import type { CallSource, StageShare } from '../../../contracts/room/model.js';
import type { RoomResults } from '../../../contracts/room/results.js';
import type { RoomCore, Turn } from '../core.js';
import type { MemberRecord } from '../records.js';
import { PLAYBACK } from '../playback/room-playback.js';
import { CALL_SEATS, STAGE, allottedKbps, endShare, requireSfu, watchSharers } from './stage-room.js';

export async function startShare(core: RoomCore, command: RoomCommandOf<'stage.start'>, turn: Turn): Promise<RoomResults['stage.start']> {
  const { access } = turn;
  core.require(access, 'share_screen', 'showing a screen');
  if (access.service) throw new AppError('forbidden', 'a service caller cannot show a screen');
  const sfu = requireSfu(core, 'showing a screen');
  // A share lasts while its sharer is in the room (their last connection going ends it).
  if (!core.presence.isOnline(access.userId)) throw new AppError('conflict', 'showing a screen needs you in the room: connect to it (a realtime connection) first');
  const stage = STAGE.of(core);
  const existing = stage.share(access.userId);
  // A retry, or a second tab: the share is already there.
  if (existing) return { share: existing };
  const settings = core.deps.settings;
  const most = settings.get('sfu.maxSharesPerRoom');
  if (stage.size >= most) {
    const names = stage.list().map((share) => share.name);
    throw new AppError('conflict', `the stage is full: ${listed(names)} ${names.length === 1 ? 'is' : 'are'} showing a screen, and this room shows ${most} at most (sfu.maxSharesPerRoom); ask them to stop, or wait`);
  }
  const shareKbps = settings.get('sfu.shareMaxKbps');
  const roomKbps = settings.get('sfu.roomMaxKbps');
  const allotted = allottedKbps(core);
  if (allotted + shareKbps > roomKbps) {
    throw new AppError(
      'limit_exceeded',
      `this room's bandwidth is taken: its screens and cameras have ${allotted} of ${roomKbps} kbit/s (sfu.roomMaxKbps), and a screen needs ${shareKbps} (sfu.shareMaxKbps); try again when a camera or a screen stops`,
    );
  }
  const keepPlaying = command.keepPlaying === true;
  const member = access.member as MemberRecord;
  const share: StageShare = { userId: access.userId, name: member.name, startedAt: turn.now, keepPlaying };
  // The stage takes the video's place: unless the sharer keeps it playing, the room pauses
  // first, as any pause, so everyone sees why it stopped (by: the sharer).
  if (!keepPlaying && (core.playback.playing || PLAYBACK.of(core).holding)) {
    const playback = PLAYBACK.of(core);
    await playback.change({ patch: { playing: false, position: playback.positionNow(), updatedAt: turn.now }, cause: 'playback.pause', by: access.userId, wait: 'close' });
  }
  stage.add(share);
  core.publish({ type: 'stage.started', share });
  sfu.shareStarted(core.id, access.userId);
  watchSharers(core);
  return { share };
}

export function stopShare(core: RoomCore, command: RoomCommandOf<'stage.stop'>, turn: Turn): Promise<RoomResults['stage.stop']> {
  const { access } = turn;
  const userId = command.userId ?? access.userId;
  const own = userId === access.userId;
  // Stopping one's own needs no permission: someone who lost share_screen was stopped already.
  if (!own) core.require(access, 'manage_members', "stopping someone else's share");
  const stopped = own ? endShare(core, userId, 'stopped') : endShare(core, userId, 'moderator', access.userId);
  return Promise.resolve({ stopped });
}

export function admitCall(core: RoomCore, command: RoomCommandOf<'call.admit'>, turn: Turn): Promise<RoomResults['call.admit']> {
  const { access } = turn;
  if (access.service) throw new AppError('forbidden', 'a service caller cannot join a call');
  requireSfu(core, command.part === 'stage' ? 'watching the stage' : 'joining the call');
  const member = access.member as MemberRecord;
  const answer = (sources: CallSource[], cameraRefused?: string): Promise<RoomResults['call.admit']> =>
    Promise.resolve({
      identity: access.userId,
      name: member.name,
      sources,
      moderator: access.permissions.has('manage_members'),
      ...(cameraRefused !== undefined ? { cameraRefused } : {}),
    });
  // Every member may watch the stage, as every member sees what plays.
  if (command.part === 'stage') return answer(STAGE.of(core).share(access.userId) ? ['screen_share', 'screen_share_audio'] : []);
  // The call's room carries every voice and camera: only those who may talk receive them.
  core.require(access, 'use_webrtc', 'joining the call');
  const seats = CALL_SEATS.of(core);
  seats.talkers.add(access.userId);
  if (seats.cameras.has(access.userId)) return answer(['microphone', 'camera']);
  const cameraKbps = core.deps.settings.get('sfu.cameraMaxKbps');
  const roomKbps = core.deps.settings.get('sfu.roomMaxKbps');
  const allotted = allottedKbps(core);
  if (allotted + cameraKbps > roomKbps) {
    return answer(['microphone'], `no camera: this room's screens and cameras have ${allotted} of ${roomKbps} kbit/s (sfu.roomMaxKbps), and a camera needs ${cameraKbps} (sfu.cameraMaxKbps); join again when one stops`);
  }
  seats.cameras.add(access.userId);
  return answer(['microphone', 'camera']);
}

export async function muteInCall(core: RoomCore, command: RoomCommandOf<'call.mute'>, turn: Turn): Promise<RoomResults['call.mute']> {
  core.require(turn.access, 'manage_members', "muting someone's microphone");
  const sfu = requireSfu(core, "muting someone's microphone");
  if (!core.members.has(command.userId)) throw new AppError('not_found', `${command.userId} is not a member of this room`);
  // The moderator waits for the SFU's answer: "muted" must mean a microphone went quiet.
  const muted = await sfu.muteMicrophone(core.id, command.userId);
  if (muted) core.publish({ type: 'call.muted', userId: command.userId, by: turn.access.userId });
  return { muted };
}

/** "Ann", "Ann and Bo", "Ann, Bo and Cy". */
function listed(names: readonly string[]): string {
  if (names.length <= 1) return names[0] ?? 'someone';
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}
