/**
 * Fixed bounds of the room actor that are not runtime settings. They keep one room's memory,
 * its events and its rows bounded whatever clients send; `docs/2026-11-21-room-actor.md`
 * explains each choice.
 */
export const ROOM_LIMITS = {
  /** Room names and member display names, in characters (code points) after trimming. */
  nameMaxChars: 64,
  /** Room passwords; bounded so hashing cost per request is bounded too. */
  passwordMaxChars: 128,

  /** A watch queue longer than this is a library, not a queue; events carry whole items. */
  playlistMaxItems: 500,
  /** Folders group items ("a season", "tonight's films"); they do not raise the item cap. */
  playlistMaxFolders: 100,
  titleMaxChars: 256,
  urlMaxChars: 2048,
  /** Provider kinds beyond the built-in ones are lowercase names, like `bilibili` or `alist`. */
  providerPattern: /^[a-z][a-z0-9_-]{0,31}$/,
  headersMaxCount: 20,
  headerNameMaxChars: 64,
  headerValueMaxChars: 1024,
  subtitlesMaxCount: 20,

  chatMaxChars: 2000,
  chatHistoryDefaultLimit: 50,
  chatHistoryMaxLimit: 100,
  clientMessageIdMaxChars: 128,

  /** A danmaku comment crosses the player in a few seconds: one line, short enough to read on the move. */
  danmakuMaxChars: 100,
  /**
   * Comments kept per media item (the oldest go first): enough for a dense film, bounded so
   * `danmaku.list` fits one answer and a later viewer's page draws a bounded number.
   */
  danmakuPerItemMax: 1000,
  /**
   * How far a comment's position may be from where the room's clock says playback is: players
   * in step are within a fraction of a second, a paused seek bar or a slow link a few seconds.
   * Further than this, the sender is not where they claim to be.
   */
  danmakuPositionToleranceSeconds: 10,

  /** Playback positions are seconds; a week is far beyond any media and catches unit mix-ups. */
  positionMaxSeconds: 7 * 24 * 3600,
  rateMin: 0.25,
  rateMax: 4,
  /** Client send times further back than this are treated as this (clock skew, stalls). */
  transitCompensationMaxMs: 2000,
  /**
   * A scheduled start (`startInMs` of play and seek) lies at most this far ahead: enough for
   * every client to receive the change over a slow link (a few hundred ms) and still start at
   * the same instant, short enough that pressing play never feels ignored.
   */
  startInMaxMs: 2000,

  readyTimeoutDefaultMs: 8000,
  readyTimeoutMinMs: 1000,
  readyTimeoutMaxMs: 60000,

  connectionIdMaxChars: 128,

  /**
   * Bans per room. Each ban is a row the activation holds in memory; past this a manager
   * lifts old bans first (a room that needs more is better served by joining by approval).
   */
  bansMax: 1000,
  /** Join requests waiting at once; they also hold seats (`server.maxMembersPerRoom`). */
  pendingJoinRequestsMax: 200,
  /** Bans `room.get` carries (the first page, by user id); the rest are read with `member.bans`. */
  bansInView: 50,
  banPageDefaultLimit: 50,
  banPageMaxLimit: 200,

  /**
   * A room with more active members than this becomes a crowd, and one with fewer than
   * `crowdLeaveMembers` stops being one (the gap keeps a room near the line from flipping).
   * A crowd lists its owner and admins, counts everyone and pages the rest
   * (docs/2026-11-30-crowds.md).
   */
  crowdEnterMembers: 200,
  crowdLeaveMembers: 150,
  /** The owner and admins a crowd's view lists, at most. */
  crowdListedMax: 100,
  /** The headcount event goes out at most this often. */
  headcountIntervalMs: 1000,
  memberPageDefaultLimit: 100,
  memberPageMaxLimit: 500,
  memberQueryMaxChars: 64,

  /** An audio-only SDP from a browser is 2-6 KB; video and many codecs stay well under this. */
  voiceSdpMaxChars: 65_536,
  voiceCandidateMaxChars: 1024,

  /** Vote-skip threshold, in percent of the present members who may vote; 0 turns it off. */
  voteSkipPercentMax: 100,

  /** A poll: its question and each option, in characters after trimming. */
  pollQuestionMaxChars: 200,
  pollOptionMaxChars: 100,
  pollOptionsMin: 2,
  pollOptionsMax: 10,
  /** A poll's timer: from 10 s to an hour; without one it stays open until closed. */
  pollDurationMinMs: 10_000,
  pollDurationMaxMs: 3_600_000,
  /** Closed polls a room keeps (and shows); older ones are deleted as new ones close. */
  pollsKept: 20,

  /**
   * Slow mode: at most one chat message (and one danmaku comment) per member per this many
   * seconds; 0 is off. Ten minutes is already "one remark per scene".
   */
  slowModeMaxSeconds: 600,
  /** Word filter entries per room, and characters per entry (a phrase of a few words). */
  wordFilterMaxEntries: 200,
  wordFilterEntryMaxChars: 50,
  /** A reply carries the start of the message it answers, in characters, so clients quote it without a fetch. */
  chatReplyExcerptChars: 100,
  /**
   * How long after sending an author may edit or delete their own message (delete_chat holders
   * delete any message any time): long enough to fix a typo, short enough that a conversation
   * read later is the one that happened. Room-independent; the error message says the figure.
   */
  chatEditWindowMs: 15 * 60_000,
  /** Members one message may mention (and so notify); further mentions stay plain text. */
  chatMentionsMax: 10,
} as const;
