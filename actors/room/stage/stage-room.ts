/** The stage and the call as the room's membership, permissions and bandwidth shape them. */
import { AppError } from '../../../errors/index.js';
import type { StageStopReason } from '../../../contracts/room/events.js';
import { StateSlice, type RoomCore } from '../core.js';
import { CallSeats, Stage } from './stage.js';

export const STAGE = new StateSlice('stage', () => new Stage());
export const CALL_SEATS = new StateSlice('call seats', () => new CallSeats());

/** How long a sharer may be missing from the SFU call before their share ends (reason `sfu`), unless RoomActorDeps.sfuLossMs says otherwise. */
export const DEFAULT_SFU_LOSS_MS = 5000;
/** How often the stage looks at what the warden saw of its sharers. */
export const STAGE_CHECK_MS = 1000;
export const STAGE_CHECK_TIMER = 'stage.sfu';

export function requireSfu(core: RoomCore, action: string): NonNullable<RoomCore['deps']['sfu']> {
  const sfu = core.deps.sfu;
  if (!sfu) throw new AppError('unavailable', `${action} needs an SFU, and this server has no SFU (startup key sfu.url)`);
  return sfu;
}

/** The bandwidth the room has given out (kbit/s): each share and each camera seat at its cap. */
export function allottedKbps(core: RoomCore): number {
  const settings = core.deps.settings;
  return STAGE.of(core).size * settings.get('sfu.shareMaxKbps') + CALL_SEATS.of(core).cameras.size * settings.get('sfu.cameraMaxKbps');
}

/** Ends a share: the event everyone sees, the SFU told to take the screen back. */
export function endShare(core: RoomCore, userId: string, reason: StageStopReason, by?: string): boolean {
  const stage = STAGE.of(core);
  if (!stage.remove(userId)) return false;
  core.publish({ type: 'stage.stopped', userId, reason, ...(by !== undefined ? { by } : {}) });
  core.deps.sfu?.shareStopped(core.id, userId);
  watchSharers(core);
  return true;
}

/** Keeps the warden watching this room's sharers, and the stage's look at them scheduled, while there are any. */
export function watchSharers(core: RoomCore): void {
  const sfu = core.deps.sfu;
  if (!sfu) return;
  const sharers = STAGE.of(core).userIds();
  sfu.watchSharers(core.id, sharers);
  if (sharers.length === 0) core.timers.cancel(STAGE_CHECK_TIMER);
  else if (!core.timers.has(STAGE_CHECK_TIMER)) core.timers.schedule(STAGE_CHECK_TIMER, STAGE_CHECK_MS);
}

/** The timer: shares whose sharer the SFU lost for longer than allowed end (reason `sfu`). */
export function checkSharers(core: RoomCore): void {
  const sfu = core.deps.sfu;
  if (!sfu) return;
  const lossMs = core.deps.sfuLossMs ?? DEFAULT_SFU_LOSS_MS;
  for (const userId of STAGE.of(core).userIds()) {
    if (sfu.missingForMs(core.id, userId) > lossMs) endShare(core, userId, 'sfu');
  }
  if (STAGE.of(core).size > 0) core.timers.schedule(STAGE_CHECK_TIMER, STAGE_CHECK_MS);
}

/**
 * Whenever who may share or talk can change (a connection gone, a member removed, a role,
 * permissions or the room's overrides changed): shares whose sharer is no longer here end
 * (`left`: offline; `removed`: no longer a member or lost share_screen), and call seats whose
 * member is gone or lost use_webrtc are freed — losing use_webrtc also ends their SFU call (the
 * stage stays theirs to watch).
 */
export function pruneStage(core: RoomCore): void {
  for (const userId of STAGE.of(core).userIds()) {
    const member = core.members.get(userId);
    if (!member || member.status !== 'active' || !core.access({ userId, guest: member.guest }).permissions.has('share_screen')) endShare(core, userId, 'removed');
    else if (!core.presence.isOnline(userId)) endShare(core, userId, 'left');
  }
  const seats = CALL_SEATS.of(core);
  for (const userId of [...seats.talkers]) {
    const member = core.members.get(userId);
    const mayTalk = member?.status === 'active' && core.access({ userId, guest: member.guest }).permissions.has('use_webrtc');
    if (!mayTalk) {
      seats.release(userId);
      // Still a member: out of the call, which carries every voice and camera, while they watch the
      // stage on; a removed member was ejected from both by memberRemoved.
      if (member?.status === 'active') core.deps.sfu?.eject(core.id, userId, 'lost use_webrtc', ['call']);
    } else if (!core.presence.isOnline(userId)) seats.release(userId);
  }
}
