/**
 * The room as an actor type: activation loads it, and each command passes the same gates
 * before its handler runs — shape, guest switch, existence and review state, membership —
 * so a handler only decides what is particular to it (its permission and its rules).
 */
import { AppError } from '../../errors/app-error.js';
import type { Actor, ActorType, Caller, CommandMeta, DeactivationReason } from '../runtime/actor-type.js';
import { FencedError } from '../runtime/fencing.js';
import { isRoomCommandKind, type RoomCommandKind, type RoomCommandOf } from '../../contracts/room/commands.js';
import { parseRoomCommand } from './parse-command.js';
import { roomWriters } from './writers.js';
import { ROOM_ACTOR_TYPE, RoomCore, type RoomActorDeps, type Turn } from './core.js';
import { TIMER_KIND } from './timers.js';
import { onLiveTimer } from './media/live-sweep.js';
import { onPresenceTimer } from './members/presence-sweep.js';
import * as chat from './chat/chat-handlers.js';
import * as reactions from './chat/reaction-handlers.js';
import * as danmaku from './chat/danmaku-handlers.js';
import * as live from './media/live-handlers.js';
import * as members from './members/member-handlers.js';
import * as memberPermissions from './members/member-permissions.js';
import { forgetMember } from './members/forget-member.js';
import * as playable from './media/playable-handlers.js';
import * as playback from './playback/playback-handlers.js';
import * as playlist from './media/playlist-handlers.js';
import * as folders from './media/folder-handlers.js';
import * as polls from './polls/poll-handlers.js';
import * as queue from './playback/queue-handlers.js';
import * as queueVotes from './playback/queue-vote-handlers.js';
import * as room from './room-handlers.js';
import * as voice from './voice/voice-handlers.js';
import * as voteSkip from './playback/vote-skip-handlers.js';
import type { RoomResults } from '../../contracts/room/results.js';
import { SEEK_RESULT_KIND, abortSeekChecks, recordSeekable, resumeSeekChecks, seekChecksRunning } from './playback/seek-check.js';
import { onReadyTimeout } from './playback/ready-wait.js';

type Handler<K extends RoomCommandKind> = (core: RoomCore, command: RoomCommandOf<K>, turn: Turn) => Promise<RoomResults[K]>;

/** One handler per command kind; the mapped type makes a missing or mistyped one a compile error. */
const HANDLERS: { [K in RoomCommandKind]: Handler<K> } = {
  'room.create': room.createRoom,
  'room.get': room.getRoom,
  'room.update': room.updateRoomSettings,
  'room.delete': room.deleteRoomCommand,
  'room.review': room.reviewRoom,
  'owner.transfer': room.transferOwnership,
  'webrtc.join': room.joinWebrtc,
  'voice.join': voice.joinVoice,
  'voice.leave': voice.leaveVoice,
  'voice.mute': voice.muteVoice,
  'voice.signal': voice.relaySignal,

  'member.join': members.joinRoom,
  'member.leave': members.leaveRoom,
  'member.approve': members.approveMember,
  'member.reject': members.rejectMember,
  'member.kick': members.kickMember,
  'member.ban': members.banMember,
  'member.unban': members.unbanMember,
  'member.bans': members.listBans,
  'member.setRole': members.setMemberRole,
  'member.setPermissions': memberPermissions.setMemberPermissions,
  'member.forget': forgetMember,
  'presence.enter': members.enterPresence,
  'presence.refresh': members.refreshPresence,
  'presence.leave': members.leavePresence,
  'member.player': members.reportPlayer,

  'playlist.push': playlist.pushMedia,
  'playlist.insert': playlist.insertMediaAt,
  'playlist.move': playlist.moveMedia,
  'playlist.remove': playlist.removeMedia,
  'playlist.clear': playlist.clearMedia,
  'playlist.setCurrent': playlist.setCurrentMedia,
  'playlist.edit': playlist.editMedia,
  'playlist.folder.add': folders.addFolder,
  'playlist.folder.rename': folders.renamePlaylistFolder,
  'playlist.folder.move': folders.movePlaylistFolder,
  'playlist.folder.remove': folders.removePlaylistFolder,
  'playlist.folder.play': folders.playPlaylistFolder,
  'playlist.playable': playable.playableMedia,
  'playlist.vote': queueVotes.voteForItem,

  'playback.play': playback.play,
  'playback.pause': playback.pause,
  'playback.seek': playback.seek,
  'playback.rate': playback.setRate,
  'playback.next': playback.next,
  'playback.previous': playback.previous,
  'playback.ended': queue.ended,
  'playback.voteSkip': voteSkip.voteSkip,

  'poll.open': polls.openPoll,
  'poll.vote': polls.votePoll,
  'poll.close': polls.closePollCommand,

  'chat.send': chat.sendMessage,
  'chat.history': chat.chatHistory,
  'chat.delete': chat.deleteMessage,
  'chat.pin': chat.pinMessage,
  'chat.unpin': chat.unpinMessage,
  'chat.pins': chat.pinnedMessages,
  'chat.edit': chat.editMessage,
  'chat.react': reactions.react,
  'chat.unreact': reactions.unreact,
  'reaction.send': reactions.sendReaction,
  'danmaku.send': danmaku.sendComment,
  'danmaku.list': danmaku.listComments,

  'live.authorize': live.authorizePublisher,
  'live.status': live.setLiveStatus,
};

/** What someone who is not an active member may send (the rest needs membership). */
const OPEN_TO_VISITORS: ReadonlySet<RoomCommandKind> = new Set(['room.get', 'member.join', 'member.leave', 'presence.leave', 'room.review']);
/** What a room rejected in review still answers, for its owner. */
const OPEN_WHEN_REJECTED: ReadonlySet<RoomCommandKind> = new Set(['room.get', 'room.delete', 'room.review', 'member.forget']);

class RoomActor implements Actor {
  constructor(private readonly core: RoomCore) {}

  async handle(raw: unknown, caller: Caller, meta: CommandMeta): Promise<unknown> {
    const core = this.core;
    if (core.fenced) throw new FencedError(core.ctx.type, core.id, core.ctx.fence);
    const kind = typeof raw === 'object' && raw !== null ? (raw as { kind?: unknown }).kind : undefined;
    if (kind === TIMER_KIND) {
      if (meta.scheduled !== true) throw new AppError('forbidden', 'timer commands are internal to the room');
      return this.onTimer(raw);
    }
    if (kind === SEEK_RESULT_KIND) return recordSeekable(core, raw, meta);

    const command = parseRoomCommand(raw);
    if (caller.guest === true && !core.deps.settings.get('user.enableGuest')) {
      throw new AppError('forbidden', 'guests cannot use rooms on this server (runtime setting user.enableGuest is off): sign in with an account');
    }
    const access = core.access(caller);
    const turn: Turn = { caller, meta, access, now: core.now() };

    if (command.kind !== 'room.create') {
      const current = core.room;
      // Only its owner (and the review workflow) can tell that a room under review exists.
      if (!current || (current.status !== 'active' && !access.isOwner && !access.service)) {
        throw new AppError('not_found', `room ${core.id} does not exist`);
      }
      if (current.status === 'rejected' && !OPEN_WHEN_REJECTED.has(command.kind)) {
        throw new AppError('conflict', 'this room was rejected in review; it can only be viewed or deleted');
      }
      if (!access.active && !OPEN_TO_VISITORS.has(command.kind)) {
        const status = access.member?.status;
        throw new AppError(
          'forbidden',
          status === 'pending'
            ? 'your join request is waiting for approval'
            : status === 'banned'
              ? 'you are banned from this room'
              : 'join the room first',
        );
      }
    }
    const handler = HANDLERS[command.kind] as Handler<RoomCommandKind>;
    return handler(core, command, turn);
  }

  private async onTimer(raw: unknown): Promise<{ timer: string | null }> {
    const name = this.core.timers.claim(raw);
    if (name === 'persist') await this.core.play.onPersistTimer();
    else if (name === 'ready') await onReadyTimeout(this.core);
    else if (name === 'presence') await onPresenceTimer(this.core);
    else if (name === 'live') onLiveTimer(this.core);
    else if (name === 'poll') await polls.onPollTimer(this.core);
    return { timer: name };
  }

  idle(): boolean {
    return this.core.presence.size === 0 && this.core.timers.size === 0 && seekChecksRunning(this.core) === 0;
  }

  async deactivate(reason: DeactivationReason, signal: AbortSignal): Promise<void> {
    abortSeekChecks(this.core);
    if (reason === 'fenced') {
      this.core.timers.cancelAll();
      return;
    }
    await this.core.deactivate(signal);
  }
}

/** The `room` actor type, to register with an actor host. */
export function createRoomActorType(deps: RoomActorDeps): ActorType {
  // One set per host: the writes of all its rooms share group commits.
  const writers = roomWriters(deps.pool);
  return {
    name: ROOM_ACTOR_TYPE,
    async activate(ctx) {
      const core = await RoomCore.activate(deps, ctx, writers);
      resumeSeekChecks(core);
      polls.schedulePollTimer(core);
      return new RoomActor(core);
    },
    commandKind: (command) => {
      const kind = typeof command === 'object' && command !== null ? (command as { kind?: unknown }).kind : undefined;
      return isRoomCommandKind(kind) ? kind : 'unknown';
    },
  };
}
