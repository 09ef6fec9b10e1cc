/**
 * What each permission lets a person do, in the words a page shows next to its checkbox.
 * The names (permissions/names.ts) stay the stored identifiers; these labels are for people
 * and may be reworded at any time. docs/2026-11-21-permissions.md has the longer meaning.
 */
import type { Permission } from './names.js';

export const PERMISSION_LABELS: { readonly [P in Permission]: string } = Object.freeze({
  send_chat: 'Write in the chat',
  view_chat_history: 'Read the chat',
  pin_chat: 'Pin chat messages',
  delete_chat: 'Delete other people’s chat messages',
  view_member_list: 'See who is here',
  manage_members: 'Let people in, remove them and change their roles',
  create_media_resource: 'Add videos to the list',
  view_media_resources: 'See the list of videos',
  edit_media_resource: 'Edit any video in the list',
  delete_media_resource: 'Remove any video from the list',
  reorder_media_resources: 'Reorder the list',
  set_current_media: 'Choose what plays',
  control_playback: 'Play, pause and seek for everyone',
  use_webrtc: 'Join voice and video calls',
  edit_room_settings: 'Change the room’s settings and permissions',
  publish_livestream: 'Stream live into the room',
});
