/** The room's player: its status line, controls, subtitles, a viewer's own file, and why media does not play. */
export const player = {
  label: 'Player',
  video: 'Video',
  videoOf: 'Video: {{title}}',
  connecting: 'Connecting…',
  couldNotOpen: 'Could not open the room: {{reason}}',
  nothingPlaying: 'Nothing is playing',
  liveOffline: 'The livestream is offline',
  joinPlayback: 'Click to join playback',
  /** Before the status line: the current item's title. */
  titleLead: '{{title}}: ',
  status: {
    offline: 'Offline: waiting for the network',
    reconnecting: 'Reconnecting…',
    disconnected: 'Disconnected from the room',
    nothing: 'Nothing is playing',
    /** `names` is made with `and` and `separator`. */
    waitingFor: 'Waiting for {{names}} to load…',
    and: '{{rest}} and {{last}}',
    separator: ', ',
    playing: 'Playing',
    pausedWhileLoading: 'Paused while {{name}} loads',
    pausedBy: 'Paused by {{name}}',
    paused: 'Paused',
    someone: 'someone',
  },
  controls: {
    seek: 'Seek',
    /** `position` and `duration` are clock times ("1:23"). */
    seekValue: '{{position}} of {{duration}}',
    previous: 'Previous',
    previousTitle: 'Previous item',
    next: 'Next',
    nextTitle: 'Next item',
    play: 'Play',
    playTitle: 'Play (k)',
    pause: 'Pause',
    pauseTitle: 'Pause (k)',
    mute: 'Mute',
    muteTitle: 'Mute (m)',
    unmute: 'Unmute',
    unmuteTitle: 'Unmute (m)',
    volume: 'Volume',
    speed: 'Playback speed',
    theatre: 'Theatre mode',
    theatreTitle: 'Theatre mode (t)',
    fullscreen: 'Fullscreen',
    fullscreenTitle: 'Fullscreen (f)',
    exitFullscreen: 'Exit fullscreen',
    exitFullscreenTitle: 'Exit fullscreen (f)',
  },
  /** Other screens: picture-in-picture, the lock screen, casting (docs/2026-11-29-pip-lock-screen-cast.md). */
  screens: {
    pip: 'Picture-in-picture',
    exitPip: 'Exit picture-in-picture',
    pipChat: 'Picture-in-picture with chat',
    exitPipChat: 'Close picture-in-picture with chat',
    /** Over the player while the video is in the window with the chat. */
    inPipWindow: 'Playing in the picture-in-picture window',
    cast: 'Play on another screen',
    /** The cast button while connected: it opens the browser's picker, where the viewer stops casting. */
    castConnected: 'Playing on another screen: choose or stop',
    castConnecting: 'Connecting to the other screen…',
    /** Over the player while casting: the picture is on the TV, the room still steers it. */
    onOtherScreen: 'Playing on another screen',
    /** A lock screen or headset button pressed by a member who may not steer playback. */
    notAllowed: 'You may not play or pause in this room, so the lock screen and headset buttons cannot steer it.',
  },
  subtitles: {
    menu: 'Subtitles',
    badge: 'CC',
    off: 'Off',
    roomDefault: 'room default',
    textSize: 'Text size',
    listFailed: 'Subtitles could not be listed: {{reason}}',
    showFailed: 'The subtitles "{{name}}" could not be shown: {{reason}}',
    /** A picture subtitle (PGS, VobSub) the server burns into the video: `{{name}}` is its language or title. */
    burned: '{{name}} (picture, burned in)',
    /** A picture subtitle stream without language or title, by its number in the media. */
    stream: 'stream {{index}}',
  },
  /** The quality menu (quality-menu.tsx): Auto or a height, this viewer's choice. */
  quality: {
    menu: 'Quality',
    auto: 'Auto',
    /** Under Auto: the rung it plays now ("720p"). */
    autoUsing: '({{height}})',
    /** A rung by its height in pixels. */
    height: '{{height}}p',
  },
  /** The line while an item plays through the server's shared transcode (web/src/player/reach-words.ts). */
  transcode: {
    remux: 'Container converted for browsers',
    audio: 'Audio converted for browsers',
    /** `{{height}}` is "720p". */
    video: 'Converted: {{height}}',
    videoAuto: 'Converted: {{height}} (auto)',
    /** `{{heights}}` is "1080p / 720p / 480p". */
    videoTo: 'Converted to {{heights}}',
    videoAny: 'Video converted for browsers',
    /** `{{reason}}` is the server's sentence, without its full stop. */
    refused: 'Could not convert this item: {{reason}}. Playing it as it is.',
  },
  localFile: {
    heading: 'Pick your copy of {{name}} ({{size}})',
    hint: 'It plays from your disk, in step with the room; nothing is uploaded.',
    input: 'Your copy of {{name}}',
    checking: 'Checking your file…',
    holders: 'Playing it now: {{names}}.',
    holdersSeparator: ', ',
    nobody: 'Nobody else in the room is playing it yet.',
    bytes: '{{size}} bytes',
    noHttps: 'This page is not served over HTTPS, so the browser cannot fingerprint files here.',
    sizeDiffers: 'Not the same file: the size differs (yours, “{{file}}”, is {{yours}} bytes; {{name}} is {{size}} bytes).',
    contentDiffers: 'Not the same file: the content differs (yours, “{{file}}”, has the size of {{name}} but other content).',
    cannotAsk: "{{name}} is a file on each viewer's own disk, and this player cannot ask for it",
  },
  /** Why a source could not be attached (web/src/player/sources.ts). */
  sources: {
    noHls: 'this browser cannot play HLS streams',
    noFlv: 'this browser cannot play FLV streams',
    noDash: 'this browser cannot play DASH streams',
    streamFailed: 'The stream could not be loaded ({{details}}).',
    unknown: 'unknown',
    noWay: 'the server offers no way to play this item',
    noYouTube: "this server does not offer YouTube's player",
  },
  youtube: {
    frame: 'YouTube video player',
    playlistFrame: 'YouTube playlist',
    /** `host` is youtube.com. */
    scriptFailed: "YouTube's player could not be loaded (is {{host}} reachable from this browser?)",
    playlistEmpty: "YouTube did not list the playlist's videos (is it private or empty?)",
    playFailed: 'The video could not be played: {{reason}}.',
    errors: {
      badId: 'YouTube refused the video id',
      html5: "YouTube's player cannot play this video in this browser",
      notFound: 'the video was not found, or it was removed or made private',
      notEmbeddable: "the video's owner does not allow it to be played on other sites",
      noReferer: "YouTube refused the player without the page's address (Referer)",
      other: "YouTube's player failed (error {{code}})",
    },
  },
  /** Why the media element could not play an item (web/src/player/media-error.ts). */
  mediaError: {
    refused: 'The server refused to fetch this address: {{message}}. Ask an admin or use another link.',
    badGateway: 'The media host did not answer properly ({{message}}). Try again later or use another link.',
    timeout: 'The media host did not answer in time ({{message}}). Try again later or use another link.',
    expired: 'The link to this media has expired ({{message}}). Reload the page.',
    server: 'The server could not play this media: {{message}}.',
    notFound: 'The media was not found at its address (HTTP {{status}}). Check the link, or use another one.',
    denied: 'The media host refused access (HTTP {{status}}): the link may have expired or need headers. Ask whoever added it for a working link.',
    down: 'The media host is down or did not answer (HTTP {{status}}). Try again later or use another link.',
    other: 'The media host answered HTTP {{status}}. Check the link, or use another one.',
    format: 'This browser cannot play this media’s format. Use another link, for example an MP4 (H.264 and AAC) or WebM file.',
    network: 'The connection to the media broke off. Check your connection; it plays again once the room moves on or the page reloads.',
    failed: 'The media could not be played. Use another link, or reload the page.',
    unreachable:
      'The media could not be reached (a network error, or its host does not let this page check it). Check the link and your connection, or play it through this server.',
  },
};
