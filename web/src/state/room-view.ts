/**
 * How a room event changes the member's view of the room: a pure function, so the browser's
 * state follows the same rule whether events arrive live or as a resume's backlog.
 */
import type { RoomEvent } from '../../../contracts/room/events.js';
import type { ChatMessage, MemberRoomView, MemberView } from '../../../contracts/room/model.js';

export type { ChatMessage, MemberRoomView, MemberView, RoomEvent };

const without = (list: MemberView[] | undefined, userId: string): MemberView[] | undefined => list?.filter((member) => member.userId !== userId);
const upsert = (list: MemberView[] | undefined, member: MemberView): MemberView[] | undefined => {
  if (!list) return list;
  const index = list.findIndex((entry) => entry.userId === member.userId);
  return index < 0 ? [...list, member] : list.map((entry, i) => (i === index ? member : entry));
};

export function applyRoomEvent(view: MemberRoomView, event: RoomEvent): MemberRoomView {
  switch (event.type) {
    case 'room.updated':
      return { ...view, room: event.room };
    case 'room.deleted':
      return view;
    case 'member.joined':
      return { ...view, members: upsert(view.members, event.member), pendingMembers: without(view.pendingMembers, event.member.userId) };
    case 'member.requested':
      return { ...view, pendingMembers: upsert(view.pendingMembers ?? [], event.member) };
    case 'member.left':
      return { ...view, members: without(view.members, event.userId), pendingMembers: without(view.pendingMembers, event.userId) };
    case 'member.updated':
      return { ...view, members: upsert(view.members, event.member) };
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
      switch (event.op) {
        case 'added': {
          const next = [...playlist];
          next.splice(Math.min(event.index, next.length), 0, event.item);
          return { ...view, playlist: next };
        }
        case 'moved': {
          const from = playlist.findIndex((item) => item.id === event.mediaId);
          if (from < 0) return view;
          const next = [...playlist];
          const [item] = next.splice(from, 1);
          next.splice(Math.min(event.toIndex, next.length), 0, item!);
          return { ...view, playlist: next };
        }
        case 'removed':
          return { ...view, playlist: playlist.filter((item) => item.id !== event.mediaId) };
        case 'cleared':
          return { ...view, playlist: [] };
        case 'edited':
          return { ...view, playlist: playlist.map((item) => (item.id === event.item.id ? event.item : item)) };
      }
      return view;
    }
    case 'chat.message':
    case 'chat.deleted':
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
    case 'live': {
      const others = (view.liveOnline ?? []).filter((id) => id !== event.mediaId);
      return { ...view, liveOnline: event.online ? [...others, event.mediaId] : others };
    }
  }
}

/** Chat as the page shows it: oldest first, at most `limit` kept. */
export function applyChatEvent(messages: ChatMessage[], event: RoomEvent, limit = 500): ChatMessage[] {
  switch (event.type) {
    case 'chat.message':
      if (messages.some((message) => message.id === event.message.id)) return messages;
      return [...messages, event.message].slice(-limit);
    case 'chat.deleted':
      return messages.filter((message) => message.id !== event.messageId);
    case 'chat.pinned':
      return messages.map((message) => (message.id === event.message.id ? event.message : message));
    case 'chat.reactions':
      return messages.map((message) => (message.id === event.messageId ? { ...message, reactions: event.reactions } : message));
    default:
      return messages;
  }
}

/** Pinned messages, newest first. */
export function applyPinEvent(pins: ChatMessage[], event: RoomEvent): ChatMessage[] {
  if (event.type === 'chat.deleted') return pins.filter((message) => message.id !== event.messageId);
  if (event.type !== 'chat.pinned') return pins;
  const rest = pins.filter((message) => message.id !== event.message.id);
  if (!event.message.pinned) return rest;
  return [event.message, ...rest].sort((a, b) => (BigInt(b.id) > BigInt(a.id) ? 1 : -1));
}
