/**
 * The stable permission names of a room. They are stored in runtime settings
 * (`permissions.*DefaultPermissions`) and in per-room overrides, so a name, once shipped,
 * is never renamed: old rows would silently lose the permission. What each one allows is
 * documented in `docs/2026-11-21-permissions.md`.
 */
export const PERMISSIONS = [
  'send_chat',
  'view_chat_history',
  'pin_chat',
  /** Delete other members' messages; authors may always delete their own. */
  'delete_chat',
  'view_member_list',
  /** Approve joins, kick, ban, and change roles below admin. */
  'manage_members',
  'create_media_resource',
  'view_media_resources',
  'edit_media_resource',
  'delete_media_resource',
  'reorder_media_resources',
  'set_current_media',
  /** Play, pause, seek and change the playback rate. */
  'control_playback',
  'use_webrtc',
  'edit_room_settings',
  /** See and rotate the RTMP stream key of the room's live items, and publish to them. */
  'publish_livestream',
  /** Vote to skip the current item and in polls (docs/2026-11-26-votes-and-polls.md). */
  'vote',
  /** Open polls (and close them; their authors and admins close any). */
  'create_poll',
  /** Show a screen, a window or a tab to the room through the SFU (docs/2026-11-29-sfu.md). */
  'share_screen',
] as const;

export type Permission = (typeof PERMISSIONS)[number];

const KNOWN: ReadonlySet<string> = new Set(PERMISSIONS);

export function isPermission(value: unknown): value is Permission {
  return typeof value === 'string' && KNOWN.has(value);
}

/**
 * What runs the room rather than takes part in it: managing members and changing the room's
 * settings (its permission overrides included). They belong to the admin role; a room's
 * overrides never hand them to members or guests (docs/2026-11-26-room-abuse.md).
 */
export const ADMINISTRATION_PERMISSIONS = ['manage_members', 'edit_room_settings'] as const satisfies readonly Permission[];

const ADMINISTRATION: ReadonlySet<string> = new Set(ADMINISTRATION_PERMISSIONS);

export function isAdministration(permission: Permission): boolean {
  return ADMINISTRATION.has(permission);
}

/** What a room's overrides may give members: anything but administration. */
export type MemberPermission = Exclude<Permission, (typeof ADMINISTRATION_PERMISSIONS)[number]>;

export function isMemberPermission(permission: Permission): permission is MemberPermission {
  return !ADMINISTRATION.has(permission);
}
