/**
 * The runtime settings' words in English, written once: per key its label, description and, for
 * text and JSON settings, what it accepts (and a list's entry name); each group's heading; each
 * choice's words; and the sentences that say what the other kinds accept. The server's registry
 * (settings/registry.ts) takes its words from here and sends them with each setting (the CLI, the
 * admin API, an operator's build); the web client's English catalogue is this object
 * (web/src/i18n/catalogue/en/setting-text.ts), and other languages translate it key for key
 * (zh-CN/setting-text.ts, typed by it). Permissions' words are contracts/permissions/labels.ts.
 *
 * `{{name}}` marks a placeholder: `{{min}}`/`{{max}}` and the joined choices are filled by whoever
 * says the sentence; the examples inside sentences (addresses, which are not words to translate)
 * are SETTING_EXAMPLES below, filled by the server and by the web client alike.
 */
export const SETTING_WORDS = {
  groups: {
    server: 'Server limits',
    permissions: 'Room permissions',
    room: 'Rooms',
    user: 'Sign-up and guests',
    oauth2: 'Sign-in providers',
    proxy: 'Playing through this server',
    rtmp: 'Live streaming',
    email: 'Email sign-up',
    webrtc: 'Voice and video calls',
    sfu: 'Screen sharing and cameras',
    chat: 'Chat',
    cors: 'Other sites',
  },
  /** By the key's own dotted path: `keys.server.maxRoomsPerUser` is server.maxRoomsPerUser. */
  keys: {
    server: {
      allowRoomCreation: {
        label: 'People can create rooms',
        description: 'When off, nobody can create a new room on this server; existing rooms stay open.',
      },
      maxRoomsPerUser: {
        label: 'Rooms per person',
        description: 'How many rooms one person can own at the same time.',
      },
      maxMembersPerRoom: {
        label: 'People per room',
        description: 'How many people can be in one room at the same time.',
      },
      maxChatMessages: {
        label: 'Server-wide chat message limit',
        description: 'The chat message limit this server states as its policy; rooms delete old messages by “Chat messages kept per room”.',
      },
    },
    permissions: {
      adminDefaultPermissions: {
        label: 'What room admins can do',
        description: 'What a room’s admins can do, unless the room sets its own permissions.',
      },
      memberDefaultPermissions: {
        label: 'What room members can do',
        description: 'What people who joined a room with an account can do, unless the room sets its own permissions.',
      },
      guestDefaultPermissions: {
        label: 'What guests can do',
        description: 'What guests (people without an account) can do in a room, unless the room sets its own permissions; guests can only ever look on and join calls.',
      },
    },
    room: {
      disableCreateRoom: {
        label: 'Stop room creation',
        description: 'When on, nobody can create a new room; a switch of its own beside “People can create rooms”.',
      },
      createRoomNeedReview: {
        label: 'New rooms need approval',
        description: 'When on, a new room stays hidden from everyone but its owner until an administrator approves it.',
      },
      passwordPolicy: {
        label: 'Room passwords',
        description: 'Whether a room may, must or must not have a password to join it.',
      },
    },
    user: {
      enablePasswordSignup: {
        label: 'Sign up with a password',
        description: 'Lets anyone create an account with a username and password.',
      },
      passwordSignupNeedReview: {
        label: 'Password sign-ups need approval',
        description: 'When on, an account made with a password waits for an administrator’s approval before it can sign in.',
      },
      enableEmailSignup: {
        label: 'Sign up by email',
        description: 'Lets anyone create an account from a link sent to their email address, where they choose a password.',
      },
      emailSignupNeedReview: {
        label: 'Email sign-ups need approval',
        description: 'When on, an account made by email waits for an administrator’s approval before it can sign in.',
      },
      enableWebauthnSignup: {
        label: 'Sign up with a passkey',
        description: 'Lets anyone create an account with a passkey instead of a password (adding a passkey to an existing account is always possible).',
      },
      webauthnSignupNeedReview: {
        label: 'Passkey sign-ups need approval',
        description: 'When on, an account made with a passkey waits for an administrator’s approval before it exists.',
      },
      enableGuest: {
        label: 'Guests',
        description: 'Lets people without an account join rooms as guests under a display name.',
      },
    },
    oauth2: {
      providers: {
        label: 'Sign in with GitHub or another provider',
        description: 'The outside sign-in providers (GitHub, or any OpenID Connect provider) people can use; only those listed here are offered.',
        accepts: 'A list of providers, each with a unique name, its kind, client ID, client secret and return address (and an issuer for OpenID Connect).',
      },
    },
    proxy: {
      movieProxy: {
        label: 'Play videos through this server',
        description: 'Lets rooms play a video through this server when the viewer’s browser cannot fetch it directly.',
      },
      liveProxy: {
        label: 'Play live streams through this server',
        description: 'Lets rooms play a live stream through this server when the viewer’s browser cannot fetch it directly.',
      },
    },
    rtmp: {
      customPublishHost: {
        label: 'Address for streamers',
        description: 'The address given to people who stream into a room; leave empty to use this server’s own address.',
        accepts: 'A host name or IP address, optionally with :port; or empty.',
      },
      tsDisguisedAsPng: {
        label: 'Disguise live video pieces as images',
        description: 'Serves the pieces of live streams as if they were PNG images, for networks that block video files.',
      },
    },
    email: {
      whitelistEnabled: {
        label: 'Only allowed email addresses can sign up',
        description: 'When on, sign-up by email is limited to the addresses and domains listed below (an empty list limits nothing).',
      },
      whitelistDomains: {
        label: 'Allowed email domains and addresses',
        /** `{{domain}}` and `{{address}}` are examples (example.com, alice@example.com). */
        description: 'The domains ({{domain}}) and addresses ({{address}}) allowed to sign up by email.',
        accepts: 'Domains or email addresses separated by commas; or empty.',
      },
    },
    webrtc: {
      externalIceServers: {
        label: 'Servers that connect calls (STUN/TURN)',
        description: 'The STUN and TURN servers that help voice and video calls connect between people on different networks.',
        accepts: 'A list of servers, each with one or more addresses like stun:host:port or turn:host:port; a TURN server also needs a username and credential.',
      },
    },
    sfu: {
      maxSharesPerRoom: {
        label: 'Screens shared at once per room',
        description: 'How many people can show their screen in one room at the same time.',
      },
      shareMaxKbps: {
        label: 'Bandwidth of one shared screen (kbit/s)',
        description: 'The most one shared screen, with its sound, may send.',
      },
      cameraMaxKbps: {
        label: 'Bandwidth of one camera (kbit/s)',
        description: 'The most one camera may send.',
      },
      memberMaxKbps: {
        label: 'Bandwidth of one person (kbit/s)',
        description: 'The most one person may send in a call, microphone, camera and screen together.',
      },
      roomMaxKbps: {
        label: 'Bandwidth of one room (kbit/s)',
        description: 'The most all the screens and cameras of one room may send together; a screen or camera beyond it is refused.',
      },
      maxParticipantsPerRoom: {
        label: 'People in one call',
        description: 'How many people can be in the call of one room at the same time, watching or talking.',
      },
    },
    chat: {
      maxMessagesPerRoom: {
        label: 'Chat messages kept per room',
        description: 'How many chat messages each room keeps; older ones are deleted.',
      },
      maxPinnedMessagesPerRoom: {
        label: 'Pinned messages kept per room',
        description: 'How many pinned chat messages each room keeps.',
      },
      messageRetentionDays: {
        label: 'Days chat messages are kept',
        description: 'Chat messages older than this many days are deleted.',
      },
    },
    cors: {
      allowedOrigins: {
        label: 'Other sites that may play videos from here',
        description: 'Websites that may load this server’s proxied videos and streams in their own pages (besides the addresses set at startup).',
        /** `{{origin}}` is an example site address (https://watch.example.com). */
        accepts: 'A list of site addresses like {{origin}} (scheme, host and optional port, nothing after).',
        /** What one entry of the list is called: "Site address 1", "Add a site address". */
        itemLabel: 'Site address',
      },
    },
  },
  /** The words of a choice setting's values, by the key's dotted path and then the value. */
  choices: {
    room: {
      passwordPolicy: {
        optional: 'Optional',
        required: 'Required',
        forbidden: 'Not allowed',
      },
    },
  },
  /** What a setting accepts, by its kind, for the kinds whose sentence is made from their range or choices. */
  accepts: {
    boolean: 'On or off.',
    integer: 'A whole number from {{min}} to {{max}}.',
    integerNoLimit: 'A whole number from {{min}} to {{max}}; 0 means no limit.',
    /** `{{options}}`: the choices' words joined with `optionSeparator`. */
    choice: 'One of: {{options}}.',
    optionSeparator: ', ',
    /** `{{permissions}}`: the permissions' words (in lower case) joined with `permissionSeparator`. */
    permissions: 'Any of: {{permissions}}.',
    permissionSeparator: '; ',
  },
};

/** Examples inside a setting's sentences, by key: kept out of the words so that no translation holds an address. */
export const SETTING_EXAMPLES: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  'email.whitelistDomains': { domain: 'example.com', address: 'alice@example.com' },
  'cors.allowedOrigins': { origin: 'https://watch.example.com' },
};

/** A sentence with its `{{name}}` placeholders filled from `values`; one without a value stays as it is. */
export function fillWords(sentence: string, values: Readonly<Record<string, string | number>> = {}): string {
  return sentence.replace(/\{\{(\w+)\}\}/g, (placeholder, name: string) => (Object.hasOwn(values, name) ? String(values[name]) : placeholder));
}
