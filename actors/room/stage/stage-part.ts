/**
 * The stage's part (docs/2026-11-29-sfu.md): the screens shown through the SFU and the call's
 * seats, in memory; its commands; the stage in every member's view; and the consequences of a
 * member going: a share ends when its sharer leaves the room (their last connection), is kicked
 * or banned, or loses share_screen, and a member kicked, banned or gone is taken out of the SFU
 * call. The SFU is told by the warden (sfu/call-warden.ts), called from here.
 */
import { roomPart } from '../part.js';
import { admitCall, muteInCall, startShare, stopShare } from './stage-handlers.js';
import { CALL_SEATS, STAGE, STAGE_CHECK_TIMER, checkSharers, endShare, pruneStage } from './stage-room.js';

export const stagePart = roomPart({
  name: 'stage',
  state: [STAGE, CALL_SEATS],
  handlers: {
    'stage.start': startShare,
    'stage.stop': stopShare,
    'call.admit': admitCall,
    'call.mute': muteInCall,
  },
  timers: { [STAGE_CHECK_TIMER]: checkSharers },
  view: (core) => {
    const stage = STAGE.of(core);
    return stage.size > 0 ? { stage: stage.list() } : {};
  },
  memberRemoved: (core, userId, { reason }) => {
    endShare(core, userId, reason === 'left' ? 'left' : 'removed');
    CALL_SEATS.of(core).release(userId);
    // A rejected join request never had a call to leave.
    if (reason !== 'rejected') core.deps.sfu?.eject(core.id, userId, reason);
  },
  memberChanged: pruneStage,
  roomChanged: pruneStage,
  presenceChanged: (core, _userId, change) => {
    // Someone coming online takes nothing away; their last connection going ends their share.
    if (change === 'offline') pruneStage(core);
  },
  deleted: (core) => {
    core.deps.sfu?.closeCall(core.id);
    STAGE.of(core).clear();
    CALL_SEATS.of(core).clear();
    core.deps.sfu?.watchSharers(core.id, []);
  },
  deactivating: async (core, reason) => {
    // The next activation starts with an empty stage (in memory, like the voice call): the
    // sharers' screens are taken back now rather than left running with nobody's share on it,
    // and everyone is told, or their pages would show a stage the next activation has not.
    // A fenced activation, or one whose host lost its lease, publishes nothing (another one may
    // own the room); it only lets go.
    const sfu = core.deps.sfu;
    for (const userId of STAGE.of(core).userIds()) {
      if (reason === 'fenced' || reason === 'lease-lost') sfu?.shareStopped(core.id, userId);
      else endShare(core, userId, 'sfu');
    }
    if (!sfu) return;
    sfu.watchSharers(core.id, []);
    await sfu.settled(core.id);
  },
});
