/** The header around every page, and the notification bell. */
export const shell = {
  skipToContent: 'Skip to content',
  home: 'svc home',
  mainNav: 'Main',
  rooms: 'Rooms',
  admin: 'Admin',
  guestName: '{{name}} (guest)',
  signIn: 'Sign in',
  signUp: 'Sign up',
  signOut: 'Sign out',
  notFound: {
    body: 'There is nothing at this address.',
    browse: 'Browse rooms',
    title: 'Page not found',
  },
  bell: {
    label: 'Notifications',
    unread_one: '{{count}} unread',
    unread_other: '{{count}} unread',
    empty: 'No notifications yet.',
    mention: '{{by}} mentioned you in {{room}}: “{{excerpt}}”',
    joinApproved: 'You may now join {{room}}.',
    joinDeclined: 'Your request to join {{room}} was declined.',
    roleChanged: 'Your role in {{room}} is now {{role}}.',
    reviewApproved: 'A reviewer approved your request.',
    reviewDeclined: 'A reviewer declined your request.',
  },
};
