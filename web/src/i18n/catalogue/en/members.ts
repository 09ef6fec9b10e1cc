/** The member list: roles, presence, join requests, bans, and a member's own permissions. */
export const members = {
  heading: 'Members',
  list: 'Room members',
  cannotSee: 'You cannot see the member list.',
  /** Under the heading: `{{members}}` is `memberCount`, `{{online}}` is `onlineCount`. */
  headcount: '{{members}} · {{online}}',
  memberCount_one: '{{count}} member',
  memberCount_other: '{{count}} members',
  onlineCount_one: '{{count}} online',
  onlineCount_other: '{{count}} online',
  /** A crowd (a room of hundreds or thousands) lists its owner and admins under this… */
  hosts: 'Hosts',
  /** …and everyone else, a page at a time, under this. */
  everyone: 'Everyone',
  search: 'Search by name',
  onlineOnly: 'Online only',
  loading: 'Loading members…',
  noMatch: 'No member matches.',
  /** `{{count}}` is every member the search matches. */
  shown_one: '{{shown}} of {{count}} member',
  shown_other: '{{shown}} of {{count}} members',
  showMore: 'Show more',
  you: ' (you)',
  owner: 'Owner',
  /** The badge of a member's role. */
  roles: {
    admin: 'Admin',
    member: 'Member',
    guest: 'Guest',
  },
  online: 'online',
  offline: 'offline',
  requests: 'Join requests',
  /** `{{name}}` is the member's name, heard by screen readers only. */
  approve: 'Approve{{name}}',
  reject: 'Reject{{name}}',
  banned: 'Banned',
  unban: 'Unban{{name}}',
  moreBanned_one: 'and {{count}} more',
  moreBanned_other: 'and {{count}} more',
  roleOf: 'Role of {{name}}',
  /** `{{of}}` is `of` below, heard by screen readers only. */
  setRole: 'Set role{{of}}',
  of: ' of {{name}}',
  kick: 'Kick{{name}}',
  ban: 'Ban{{name}}',
  own: {
    /** The badge of a member with permissions of their own; `{{summary}}` is `summary`, heard by screen readers only. */
    badge: 'Own permissions{{summary}}',
    summary: ': {{summary}}',
    granted: '+ {{permission}}',
    denied: '− {{permission}}',
    /** Between the entries of the summary. */
    separator: ', ',
    /** `{{of}}` is `members.of`, heard by screen readers only. */
    open: 'Permissions{{of}}',
    hint: 'On top of the {{role}} role, for {{name}} only.',
    asRole: 'As the role',
    allowed: 'Allowed',
    notAllowed: 'Not allowed',
    save: 'Save permissions{{of}}',
    reset: 'Back to the role',
  },
};
