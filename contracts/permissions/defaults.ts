/**
 * Built-in permission sets of the three room roles. They are the defaults of the
 * `permissions.*DefaultPermissions` runtime settings; operators can change those settings,
 * and rooms can override them, but the guest value can never exceed the guest ceiling.
 */
import { PERMISSIONS, type Permission } from './names.js';

export const BUILTIN_ADMIN_PERMISSIONS: readonly Permission[] = Object.freeze([...PERMISSIONS]);

/** Enough to take part in a watch session: chat, see who is there, add media, steer playback. */
export const BUILTIN_MEMBER_PERMISSIONS: readonly Permission[] = Object.freeze([
  'send_chat',
  'view_chat_history',
  'view_member_list',
  'view_media_resources',
  'create_media_resource',
  'control_playback',
  'use_webrtc',
  'vote',
  'share_screen',
] as const);

/**
 * The most a guest may ever be granted (spec 2.1, permission rule 3): guests are
 * unauthenticated, so they may look at the room and join voice/video, never write to it.
 */
export const GUEST_PERMISSION_CEILING = Object.freeze(['view_member_list', 'view_chat_history', 'use_webrtc'] as const satisfies readonly Permission[]);
export type GuestPermission = (typeof GUEST_PERMISSION_CEILING)[number];

/**
 * A guest sees who is there and reads the chat (issue 26, docs/2026-11-26-guests-watch.md; the
 * spec's table said `[]`). What is playing needs no permission: every member sees it.
 */
export const BUILTIN_GUEST_PERMISSIONS: readonly Permission[] = Object.freeze(['view_member_list', 'view_chat_history'] as const);

const CEILING: ReadonlySet<Permission> = new Set<Permission>(GUEST_PERMISSION_CEILING);

export function isWithinGuestCeiling(permission: Permission): permission is GuestPermission {
  return CEILING.has(permission);
}
