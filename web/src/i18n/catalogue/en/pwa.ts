/** The installable app: the offline and new-version notices, and the page a shared link opens. */
export const pwa = {
  notices: 'App status',
  offline: {
    title: 'You are offline.',
    body: 'Rooms, chat and playback need the network; svc reconnects when it is back.',
  },
  update: {
    ready: 'A new version of svc is ready.',
    reload: 'Reload',
    later: 'Later',
  },
  share: {
    title: 'Add a shared link',
    link: 'Link',
    linkTitle: 'Title',
    noLink: 'What was shared has no web link (http or https) to add.',
    signIn: 'Sign in to add this link to one of your rooms. You will come back here afterwards.',
    pick: 'Add it to one of your rooms',
    addTo: 'Add to {{room}}',
    noRooms: 'You have no rooms yet: start one for this link.',
    newRoom: 'Or start a new room',
    loading: 'Loading your rooms…',
    more: 'More rooms',
  },
};
