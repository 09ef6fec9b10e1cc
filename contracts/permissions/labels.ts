/**
 * What each room permission lets a person do, in the words pages show next to its checkbox (the
 * room's permission form, the admin settings page): a short label and one line of description.
 * The names (permissions/names.ts) stay the stored identifiers; these words may be reworded at
 * any time, and a permission added there without words here fails to compile. They are the
 * English of the web client's catalogue too (roomSettings.permission), so they are written once.
 * docs/2026-11-21-permissions.md has the longer meaning.
 */
import type { Permission } from './names.js';

// A type, not an interface: the web client's catalogue holds these words as they are, and its
// trees of words are indexed by name (an interface has no index signature).
export type PermissionWords = {
  label: string;
  description: string;
};

export const PERMISSION_WORDS: Readonly<Record<Permission, PermissionWords>> = {
  send_chat: { label: 'Write in the chat', description: 'Send messages to everyone in the room.' },
  view_chat_history: { label: 'Read the chat', description: 'See the messages sent before they came in, not only new ones.' },
  pin_chat: { label: 'Pin messages', description: 'Pin and unpin chat messages for everyone.' },
  delete_chat: { label: 'Delete others’ messages', description: 'Remove anyone’s chat messages (everyone can delete their own).' },
  view_member_list: { label: 'See who is here', description: 'See the list of people in the room.' },
  manage_members: { label: 'Manage people', description: 'Let people in, remove or ban them, and change their roles.' },
  create_media_resource: { label: 'Add videos', description: 'Add links and livestreams to the playlist.' },
  view_media_resources: { label: 'See the playlist', description: 'See everything queued, not only what is playing.' },
  edit_media_resource: { label: 'Edit any video', description: 'Change the title, address and subtitles of anyone’s items.' },
  delete_media_resource: { label: 'Remove any video', description: 'Remove anyone’s items, or clear the playlist.' },
  reorder_media_resources: { label: 'Reorder the playlist', description: 'Change what plays next.' },
  set_current_media: { label: 'Choose what plays', description: 'Pick the video everyone watches, and skip ahead or back.' },
  control_playback: { label: 'Play, pause and seek', description: 'Steer playback for everyone, speed included.' },
  use_webrtc: { label: 'Join voice', description: 'Talk and listen in the room’s voice call.' },
  edit_room_settings: { label: 'Change the room’s settings', description: 'Rename the room, set its password and join rules, and change these permissions.' },
  vote: { label: 'Vote', description: 'Vote to skip what is playing, and in polls.' },
  create_poll: { label: 'Open polls', description: 'Ask everyone a question with a few answers to choose from.' },
  publish_livestream: { label: 'Stream live', description: 'See the stream key of live items and broadcast to them.' },
  share_screen: { label: 'Share a screen', description: 'Show a screen, a window or a tab to everyone in the room.' },
};
