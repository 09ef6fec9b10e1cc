/** A room's settings: the room form, chat moderation, permissions by role, emotes, deleting the room. */
import { PERMISSION_WORDS } from '../../../../../contracts/permissions/labels.js';

export const roomSettings = {
  heading: 'Settings',
  room: {
    heading: 'Room',
    name: 'Room name',
    visibility: 'Visibility',
    public: 'Public: listed in the directory',
    hidden: 'Hidden: only people with the link',
    newPassword: 'New password',
    password: 'Password',
    passwordKept: 'The room has a password. Leave empty to keep it.',
    passwordNone: 'Leave empty for no password.',
    removePassword: 'Remove the password',
    approval: 'New members need approval',
    waitForAll: 'Wait for everyone to be ready before playing',
    danmaku: 'Danmaku: comments scroll over the video at the moment they were sent',
    queueMode: 'When an item ends',
    queue: {
      stop: 'Stop',
      next: 'Play the next',
      repeat_one: 'Repeat this item',
      repeat_all: 'Repeat the list',
      shuffle: 'Shuffle',
      vote: 'Play the most up-voted',
    },
    voteSkip: 'Vote to skip',
    voteSkipOff: 'Off',
    voteSkipAt: 'When {{percent}} % of the people here vote',
    save: 'Save settings',
    saved: 'Settings saved.',
  },
  moderation: {
    legend: 'Chat moderation',
    slowMode: 'Slow mode',
    slowModeOff: 'Off',
    slowModeEvery: 'One message every {{seconds}} s',
    slowModeHint: 'Moderators (members who may delete messages) are not slowed.',
    words: 'Filtered words',
    wordsHint: 'One word or phrase per line, up to 200. Words match whole words; Chinese and Japanese match anywhere in a message.',
    mode: 'A message with a filtered word',
    mask: 'Is sent with the word starred out',
    block: 'Is not sent',
  },
  permissions: {
    heading: 'Permissions by role',
    loading: 'Loading permissions…',
    roles: {
      admin: 'Admins',
      member: 'Members',
      guest: 'Guests',
    },
    /** `{{list}}` lists what guests may be given, joined with `listSeparator` and `listLast`. */
    guestNote: 'Everyone in the room can watch what is playing. Guests can at most {{list}}.',
    listSeparator: ', ',
    listLast: '{{rest}} and {{last}}',
    useDefaults: 'Use the server’s defaults',
    save: 'Save permissions',
    saved: 'Permissions saved.',
  },
  /**
   * What each room permission lets a person do, next to its checkbox: the room's permission form
   * and a member's own permissions. Written once, in contracts/permissions/labels.ts, which the
   * server's settings read too.
   */
  permission: PERMISSION_WORDS,
  emotes: {
    heading: 'Emotes',
    hint: 'Pictures anyone here can write as :name: in the chat. PNG, GIF or WebP, at most {{kib}} KiB; {{used}} of {{max}} used.',
    list: 'This room\'s emotes',
    remove: 'Remove{{name}}',
    name: 'Emote name',
    nameHint: 'Written :name: in the chat',
    nameProblem: '2 to 32 lower-case letters, digits or underscores',
    picture: 'Picture',
    upload: 'Upload the emote',
    saved: ':{{name}}: saved.',
    removed: ':{{name}}: removed.',
  },
  deleteRoom: {
    heading: 'Delete the room',
    body: 'Deletes the room with its playlist and chat for everyone. This cannot be undone.',
    confirm: 'Yes, delete the room',
    open: 'Delete room',
  },
};
