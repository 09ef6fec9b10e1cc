/**
 * What one member may see of a room's event stream, kept up to date from the stream itself:
 * the room's permission overrides and owner (from `room.updated`), the member's role and own
 * grants and denials (from `member.updated` about them) and the runtime permission defaults
 * (read at each decision).
 * It mirrors how the room computes permissions (`actors/room/permissions.ts`), so a role
 * change or a settings change applies to the very next event, without asking the room.
 *
 * It also recognises the events that end a member's watch: leaving, being kicked, banned or
 * rejected, and the room being deleted; and shapes an event for the member where the room
 * publishes one event for all: a playlist item's header values only for those who may edit it
 * (contracts/room/item-headers.ts).
 */
import { EVENT_PERMISSION, memberPermissions, ownerPermissions, type MemberRoomView, type PermissionOverrides, type RoomEvent, type RoomRole } from '../../actors/index.js';
import type { MemberPermissionOverride } from '../../contracts/room/model.js';
import type { SettingsReader } from '../../settings/index.js';
import type { Permission } from '../../contracts/permissions/names.js';
import { itemSeenBy } from '../../contracts/room/item-headers.js';

/** Why a member's watch of a room ended; transports turn it into a close code and reason. */
export type WatchEndReason = 'left' | 'kicked' | 'banned' | 'rejected' | 'room_deleted';

export class MemberLens {
  private role: RoomRole | null;
  private ownerId: string;
  private overrides: PermissionOverrides;
  private own: MemberPermissionOverride | undefined;
  /** What is playing (from `playback`): its live status reaches every member. */
  private currentMediaId: string | null;

  constructor(
    readonly userId: string,
    snapshot: MemberRoomView,
    private readonly settings: SettingsReader,
  ) {
    this.role = snapshot.me.role;
    this.own = snapshot.me.permissionOverride ?? undefined;
    this.ownerId = snapshot.room.ownerId;
    this.overrides = snapshot.room.permissionOverrides;
    this.currentMediaId = snapshot.playback.mediaId;
  }

  /** Takes a fresh snapshot's word over whatever was followed from events. */
  reset(snapshot: MemberRoomView): void {
    this.role = snapshot.me.role;
    this.own = snapshot.me.permissionOverride ?? undefined;
    this.ownerId = snapshot.room.ownerId;
    this.overrides = snapshot.room.permissionOverrides;
    this.currentMediaId = snapshot.playback.mediaId;
  }

  permissions(): ReadonlySet<Permission> {
    if (this.userId === this.ownerId) return ownerPermissions();
    if (this.role === null) return new Set();
    return memberPermissions(this.role, this.overrides, this.own, this.settings);
  }

  /** Follows a live event (before deciding on later ones) and says whether this member receives it. */
  admit(event: RoomEvent): boolean {
    this.follow(event);
    return this.visible(event);
  }

  /**
   * Whether this member receives the event under what the lens knows now, without following
   * it: for events older than the lens's state (the missed events of a resume).
   */
  visible(event: RoomEvent): boolean {
    // Signalling is for its addressee only (and only while they may use voice): SDP and ICE
    // candidates carry network addresses.
    if (event.type === 'voice.signal') return event.to === this.userId && this.permissions().has('use_webrtc');
    // A crowd's plain member leaving ends their own watches and concerns nobody else (docs/2026-11-30-crowds.md).
    if (event.type === 'member.left' && event.quiet) return event.userId === this.userId;
    if (isAbout(event, this.userId)) return true;
    // Whether what is playing is on air is part of watching it (docs/2026-11-26-guests-watch.md).
    if ((event.type === 'live' || event.type === 'media.checked') && event.mediaId === this.currentMediaId) return true;
    const needed = EVENT_PERMISSION[event.type];
    return needed === null || this.permissions().has(needed);
  }

  /** The event as this member receives it (after `admit` or `visible` said they do). */
  shape(event: RoomEvent): RoomEvent {
    if (event.type === 'playlist' && (event.op === 'added' || event.op === 'edited')) {
      const item = itemSeenBy(event.item, { userId: this.userId, permissions: this.permissions() });
      return item === event.item ? event : { ...event, item };
    }
    return event;
  }

  /** The reason the event ends this member's watch, if it does. */
  endsWatch(event: RoomEvent): WatchEndReason | undefined {
    return endsMembership(event, this.userId);
  }

  private follow(event: RoomEvent): void {
    if (event.type === 'room.updated') {
      this.ownerId = event.room.ownerId;
      this.overrides = event.room.permissionOverrides;
    } else if (event.type === 'playback') {
      this.currentMediaId = event.playback.mediaId;
    } else if ((event.type === 'member.updated' || event.type === 'member.joined') && event.member.userId === this.userId) {
      this.role = event.member.status === 'active' ? event.member.role : null;
      this.own = event.member.permissionOverride ?? undefined;
    }
  }
}

/** The reason the event ends `userId`'s membership (left, kicked, banned, rejected, room deleted), if it does. */
export function endsMembership(event: RoomEvent, userId: string): WatchEndReason | undefined {
  if (event.type === 'room.deleted') return 'room_deleted';
  if (event.type === 'member.left' && event.userId === userId) return event.reason;
  if (event.type === 'member.banned' && event.member.userId === userId) return 'banned';
  return undefined;
}

/** `member.*` events about a user reach that user whatever their permissions (a kicked member learns it). */
function isAbout(event: RoomEvent, userId: string): boolean {
  switch (event.type) {
    case 'member.joined':
    case 'member.requested':
    case 'member.updated':
    case 'member.banned':
      return event.member.userId === userId;
    case 'member.left':
    case 'member.unbanned':
      return event.userId === userId;
    default:
      return false;
  }
}
