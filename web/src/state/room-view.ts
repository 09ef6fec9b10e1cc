/**
 * How a room event changes the member's view of the room: a pure function, so the browser's
 * state follows the same rule whether events arrive live or as a resume's backlog.
 */
import type { RoomEvent } from '../../../contracts/room/events.js';
import { applyPlaylistEvent } from '../../../contracts/room/playlist-tree.js';
import type { ChatMessage, MemberRoomView, MemberView, Poll } from '../../../contracts/room/model.js';
import { excerptOf } from '../../../contracts/room/chat-excerpt.js';
import { listedInCrowd } from '../../../contracts/room/crowd.js';

export type { ChatMessage, MemberRoomView, MemberView, RoomEvent };

const without = (list: MemberView[] | undefined, userId: string): MemberView[] | undefined => list?.filter((member) => member.userId !== userId);
const upsert = (list: MemberView[] | undefined, member: MemberView): MemberView[] | undefined => {
  if (!list) return list;
  const index = list.findIndex((entry) => entry.userId === member.userId);
  return index < 0 ? [...list, member] : list.map((entry, i) => (i === index ? member : entry));
};

/** A member as the list keeps them: a crowd's list names its owner and admins only (docs/2026-11-30-crowds.md). */
function keep(view: MemberRoomView, member: MemberView): MemberView[] | undefined {
  return view.headcount.crowd && !listedInCrowd(member) ? without(view.members, member.userId) : upsert(view.members, member);
}

export function applyRoomEvent(view: MemberRoomView, event: RoomEvent): MemberRoomView {
  switch (event.type) {
    case 'room.updated':
      // Vote-skip turned off: the count goes (turned on, a vote.skip event brings it).
      return { ...view, room: event.room, ...(event.room.voteSkipPercent === 0 ? { voteSkip: undefined } : {}) };
    case 'room.deleted':
      return view;
    case 'room.wordFilter':
      return { ...view, wordFilter: event.wordFilter };
    case 'member.joined':
      return { ...view, members: keep(view, event.member), pendingMembers: without(view.pendingMembers, event.member.userId) };
    case 'member.requested':
      return { ...view, pendingMembers: upsert(view.pendingMembers ?? [], event.member) };
    case 'member.left':
      return { ...view, members: without(view.members, event.userId), pendingMembers: without(view.pendingMembers, event.userId) };
    case 'member.updated':
      return { ...view, members: keep(view, event.member) };
    case 'headcount': {
      // Becoming a crowd: its plain members are counted from now on, no longer followed.
      const members = event.headcount.crowd ? view.members?.filter(listedInCrowd) : view.members;
      return { ...view, headcount: event.headcount, members };
    }
    case 'member.banned':
      return {
        ...view,
        members: without(view.members, event.member.userId),
        pendingMembers: without(view.pendingMembers, event.member.userId),
        bannedMembers: upsert(view.bannedMembers ?? [], event.member),
        // The room publishes member.banned only for a new ban.
        ...(view.bannedCount === undefined ? {} : { bannedCount: view.bannedCount + 1 }),
      };
    case 'member.unbanned':
      return {
        ...view,
        bannedMembers: without(view.bannedMembers, event.userId),
        ...(view.bannedCount === undefined ? {} : { bannedCount: Math.max(0, view.bannedCount - 1) }),
      };
    case 'playback': {
      view = { ...view, ...votesFor(view, event.playback.mediaId) };
      // A live item becoming current says whether it is on air: a member who may see only the
      // current item had no `live` events about it before (docs/2026-11-26-guests-watch.md).
      const item = event.playback.item;
      if (item?.onAir === undefined) return { ...view, playback: event.playback };
      const others = (view.liveOnline ?? []).filter((id) => id !== item.id);
      return { ...view, playback: event.playback, liveOnline: item.onAir ? [...others, item.id] : others };
    }
    case 'playlist': {
      const playlist = view.playlist;
      if (!playlist) return view;
      // An event about an unknown item changes nothing (keeps the same view object).
      if (event.op === 'moved' && !playlist.some((item) => item.id === event.mediaId)) return view;
      return { ...view, ...applyPlaylistEvent({ playlist, playlistFolders: view.playlistFolders ?? [] }, event) };
    }
    case 'chat.message':
    case 'chat.deleted':
    case 'chat.edited':
    case 'chat.pinned':
    case 'chat.reactions':
    case 'reaction':
    case 'danmaku':
      return view; // chat lives beside the view (see applyChatEvent); a video reaction is only drawn
    case 'voice.joined': {
      const voice = (view.voice ?? []).filter((p) => p.userId !== event.participant.userId);
      return { ...view, voice: [...voice, event.participant] };
    }
    case 'voice.left':
      return { ...view, voice: (view.voice ?? []).filter((p) => p.userId !== event.userId) };
    case 'voice.muted':
      return { ...view, voice: (view.voice ?? []).map((p) => (p.userId === event.userId ? { ...p, muted: event.muted } : p)) };
    case 'voice.signal':
      return view; // signalling is for the call itself (web/src/voice/)
    case 'stage.started': {
      const others = (view.stage ?? []).filter((share) => share.userId !== event.share.userId);
      return { ...view, stage: [...others, event.share] };
    }
    case 'stage.stopped': {
      const stage = (view.stage ?? []).filter((share) => share.userId !== event.userId);
      const { stage: _gone, ...rest } = view;
      return stage.length > 0 ? { ...view, stage } : rest;
    }
    case 'call.muted':
      return view; // the SFU mutes the track itself; the call shows it (web/src/call/)
    case 'room.activated':
      return view; // the gateway sends a fresh snapshot in its place
    case 'live': {
      const others = (view.liveOnline ?? []).filter((id) => id !== event.mediaId);
      return { ...view, liveOnline: event.online ? [...others, event.mediaId] : others };
    }
    case 'media.checked': {
      // What is playing learns its checks (a guest sees no playlist): its player loads it again when the reach changes.
      const item = view.playback.item;
      if (!item || item.id !== event.mediaId) return view;
      return { ...view, playback: { ...view.playback, item: { ...item, seekable: event.seekable, reachHow: event.reachHow } } };
    }
    case 'vote.skip':
      return { ...view, voteSkip: event.voteSkip };
    case 'poll':
      return { ...view, polls: withPoll(view.polls ?? [], event.poll) };
    case 'queue.votes': {
      const others = (view.queueVotes ?? []).filter((entry) => entry.mediaId !== event.queueVotes.mediaId);
      return { ...view, queueVotes: event.queueVotes.votes > 0 ? [...others, event.queueVotes] : others };
    }
  }
}

/** The member's own choice in a poll, from the answer to their vote (events do not carry it). */
export function withMyChoice(view: MemberRoomView, pollId: string, choice: number): MemberRoomView {
  return { ...view, polls: (view.polls ?? []).map((poll) => (poll.id === pollId ? { ...poll, myChoice: choice } : poll)) };
}

/** A poll's event replaces it (keeping the member's own choice, which events never carry), or adds it first. */
function withPoll(polls: Poll[], poll: Poll): Poll[] {
  const known = polls.find((entry) => entry.id === poll.id);
  const merged = known?.myChoice !== undefined ? { ...poll, myChoice: known.myChoice } : poll;
  const rest = polls.filter((entry) => entry.id !== poll.id);
  // The open poll first, then closed ones, newest first, as the room orders them.
  return [merged, ...rest].sort((a, b) => Number(a.closedAt !== null) - Number(b.closedAt !== null) || Number(BigInt(b.id) - BigInt(a.id)));
}

/** The room forgets votes when the item changes (actors/room/playback/vote-skip.ts): so does the page. */
function votesFor(view: MemberRoomView, mediaId: string | null): Pick<MemberRoomView, 'voteSkip'> {
  const votes = view.voteSkip;
  if (!votes || votes.mediaId === mediaId) return { voteSkip: votes };
  return { voteSkip: mediaId === null ? undefined : { mediaId, votes: 0, needed: votes.needed, voters: [] } };
}

/** Chat as the page shows it: oldest first, at most `limit` kept. */
export function applyChatEvent(messages: ChatMessage[], event: RoomEvent, limit = 500): ChatMessage[] {
  switch (event.type) {
    case 'chat.message':
      if (messages.some((message) => message.id === event.message.id)) return messages;
      return [...messages, event.message].slice(-limit);
    case 'chat.deleted':
      // Replies keep their place and say they answered a deleted message (as the room will tell a later reader).
      return messages
        .filter((message) => message.id !== event.messageId)
        .map((message) =>
          message.replyTo?.id === event.messageId ? { ...message, replyTo: { id: event.messageId, deleted: true, userId: '', name: '', excerpt: '' } } : message,
        );
    case 'chat.edited':
      return messages.map((message) => (message.id === event.message.id ? event.message : requoted(message, event.message)));
    case 'chat.pinned':
      return messages.map((message) => (message.id === event.message.id ? event.message : message));
    case 'chat.reactions':
      return messages.map((message) => (message.id === event.messageId ? { ...message, reactions: event.reactions } : message));
    default:
      return messages;
  }
}

/** A reply quotes its original as it is now: an edit of the original shows in the quote too. */
function requoted(message: ChatMessage, edited: ChatMessage): ChatMessage {
  if (message.replyTo?.id !== edited.id || message.replyTo.deleted) return message;
  return { ...message, replyTo: { ...message.replyTo, excerpt: excerptOf(edited.text) } };
}

/** Pinned messages, newest first. */
export function applyPinEvent(pins: ChatMessage[], event: RoomEvent): ChatMessage[] {
  if (event.type === 'chat.deleted') return pins.filter((message) => message.id !== event.messageId);
  if (event.type === 'chat.edited') return pins.map((message) => (message.id === event.message.id ? event.message : message));
  if (event.type !== 'chat.pinned') return pins;
  const rest = pins.filter((message) => message.id !== event.message.id);
  if (!event.message.pinned) return rest;
  return [event.message, ...rest].sort((a, b) => (BigInt(b.id) > BigInt(a.id) ? 1 : -1));
}
