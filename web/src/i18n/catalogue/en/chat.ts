/** The room's chat (messages, replies, mentions, pins, emotes), slow mode, reactions and danmaku. */
export const chat = {
  heading: 'Chat',
  pinned: 'Pinned',
  loadOlder: 'Load older messages',
  noHistory: 'You cannot see the chat history here; new messages appear as they arrive.',
  guestsRead: 'Guests read the chat; sign in to write in it.',
  cannotSend: 'You cannot send messages in this room.',
  noMessages: 'No messages yet.',
  messages: 'Messages',
  edited: ' (edited)',
  /** Said to screen readers after the author of a message that mentions the reader. */
  mentionsYou: ' mentions you',
  /** A message from someone else, read out as it arrives. */
  announce: '{{name}}: {{text}}',
  /** The buttons under a message; each `…Hidden` is said after its button's word to screen readers. */
  tools: {
    reply: 'Reply',
    replyHidden: ' to {{name}}',
    edit: 'Edit',
    editHidden: ' my message',
    pin: 'Pin',
    unpin: 'Unpin',
    messageFrom: ' message from {{name}}',
    pinnedMessageFrom: ' pinned message from {{name}}',
    delete: 'Delete',
  },
  quote: {
    deleted: 'Reply to a deleted message',
    /** Said to screen readers before the quoted line. */
    replyTo: 'Reply to ',
    /** `name` is the quoted author (in bold). */
    line: '{{name}}: {{excerpt}}',
  },
  composer: {
    /** `name` is the author of the message answered (in bold). */
    replyingTo: 'Replying to {{name}}: {{text}}',
    cancelReply: 'Cancel reply',
    message: 'Message',
    placeholder: 'Write a message',
    send: 'Send',
    emotes: 'Emotes',
    roomEmotes: 'Room emotes',
    insertEmote: 'Insert :{{name}}:',
    mentionList: 'Members to mention',
  },
  editor: {
    label: 'Edit message',
  },
  slowMode: {
    refused: 'Slow mode is on',
    pace: 'Slow mode: one message every {{seconds}} s.',
    /** Follows `pace` on the same line. */
    wait: ' You can send again in {{seconds}} s.',
  },
  reactions: {
    names: {
      thumbs_up: 'Thumbs up',
      heart: 'Heart',
      laugh: 'Laugh',
      wow: 'Wow',
      sad: 'Sad',
      clap: 'Clap',
      fire: 'Fire',
      party: 'Party',
    },
    send: 'Send a reaction',
    tooMany: 'Too many reactions: wait a moment',
    overVideo: 'Reactions over the video',
    /** `names`: who reacted, joined by `separator`. */
    by: '{{reaction}} by {{names}}',
    separator: ', ',
    you: 'you',
    someone: 'someone',
    reactTo: 'React to the message from {{name}}',
    react: 'React',
    menu: 'Reactions',
  },
  danmaku: {
    comment: 'Danmaku comment',
    placeholder: 'Comment on this moment',
    send: 'Send',
    /** Said after `send` to screen readers. */
    sendHidden: ' comment',
    settings: 'Danmaku settings',
    show: 'Show danmaku',
    density: 'Density',
    densities: {
      low: 'Low',
      normal: 'Normal',
      high: 'High',
    },
    opacity: 'Opacity',
  },
};
