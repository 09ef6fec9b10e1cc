import { Command, Option } from 'clipanion';
import { AppError } from '../../errors/index.js';
import { readPassword } from '../password-input.js';
import { SvcCommand } from '../svc-command.js';

export class WatchCommand extends SvcCommand {
  static override paths = [['watch']];
  static override usage = Command.Usage({
    category: 'Watching',
    description: 'Watch a room in mpv, in step with everyone else',
    details: `
      Signs in on the server of the room link (\`--username\`, the password asked without echo, or read from SVC_WATCH_PASSWORD or from stdin when it is not a terminal; or \`--guest <name>\`), joins the room when needed (\`--room-password\` when it has one), starts mpv (or attaches to a running one started with \`--input-ipc-server\`: \`--ipc\`), and plays the room's current item in step with the room, with the web client's own sync engine (small rate changes, then seeks). Whatever becomes current is opened next.

      mpv's own keys and on-screen controller move the room for everyone where the member may (\`control_playback\`): pause and play (space), seeks (arrows, the seek bar). Without the permission the key is refused with a word on mpv's screen, and mpv is put back in step. \`--chat\` shows the room's chat messages on mpv's screen.

      YouTube items are not played (mpv needs yt-dlp for them): svc watch says so and waits for the next item. A "local file" item is each viewer's own copy: give it with \`--file\`. The command ends with Ctrl-C, when mpv is closed, or when the room ends the membership; an mpv it started is stopped with it, an attached one is left running. docs/2026-11-29-desktop-players.md says how it works.
    `,
    examples: [
      ['As a guest', '$0 watch https://watch.example.com/rooms/0123456789 --guest Sam'],
      ['Signed in, with the chat on screen', '$0 watch https://watch.example.com/rooms/0123456789 --username alice --chat'],
      ['Attached to a running mpv', 'mpv --idle --input-ipc-server=/tmp/mpv.sock & $0 watch <room link> --guest Sam --ipc /tmp/mpv.sock'],
    ],
  });

  link = Option.String({ required: true, name: 'room link' });
  username = Option.String('--username', { description: 'Sign in as this user (password: prompt, SVC_WATCH_PASSWORD, or stdin)' });
  guest = Option.String('--guest', { description: 'Join as a guest with this display name' });
  roomPassword = Option.String('--room-password', { description: "The room's password, when it has one (also SVC_WATCH_ROOM_PASSWORD)" });
  mpv = Option.String('--mpv', 'mpv', { description: 'The mpv program to start (default: mpv on PATH)' });
  ipc = Option.String('--ipc', { description: 'Attach to a running mpv through its --input-ipc-server socket instead of starting one' });
  chat = Option.Boolean('--chat', false, { description: "Show the room's chat on mpv's screen" });
  file = Option.String('--file', { description: 'Your copy of the current "local file" item' });

  async run(): Promise<number> {
    const { stdout, stderr } = this.context;
    const log = (line: string): void => void stdout.write(`${line}\n`);
    if ((this.username === undefined) === (this.guest === undefined)) {
      throw new AppError('invalid_argument', 'give either --username <name> (to sign in) or --guest <display name>', [
        { key: this.username === undefined ? 'username' : 'guest', message: 'exactly one of --username and --guest' },
      ]);
    }
    const { parseRoomLink, RoomApi, signInAsGuest, signInWithPassword, enterRoom, attachMpv, startMpv, MpvPlayer, WatchSession } = await loadWatch();

    const link = parseRoomLink(this.link);
    const api = new RoomApi(link.origin);
    let name: string;
    if (this.guest !== undefined) name = await signInAsGuest(api, this.guest);
    else {
      const password = process.env.SVC_WATCH_PASSWORD ?? (await readPassword(this.context, `Password for ${this.username} at ${link.origin}: `));
      name = await signInWithPassword(api, this.username as string, password);
    }
    const roomName = await enterRoom(api, link.roomId, this.roomPassword ?? process.env.SVC_WATCH_ROOM_PASSWORD);

    const mpv = this.ipc !== undefined ? await attachMpv(this.ipc) : await startMpv(this.mpv);
    const player = new MpvPlayer(mpv.ipc);
    const session = new WatchSession(api, link.roomId, player, { chat: this.chat, ...(this.file !== undefined ? { file: this.file } : {}), log });
    let interrupted: (signal: string) => void = () => undefined;
    const signalled = new Promise<string>((resolve) => (interrupted = resolve));
    const onSignal = (signal: NodeJS.Signals): void => interrupted(signal);
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    try {
      await session.start();
      log(`watching "${roomName}" as ${name} in mpv (IPC socket ${mpv.socketPath}); stop with Ctrl-C${mpv.owned ? ' or by closing mpv' : ''}`);
      const outcome = await Promise.race([
        signalled.then(() => ({ code: 0, line: 'stopped' })),
        mpv.gone.then(() => ({ code: 0, line: 'mpv was closed' })),
        session.whenEnded().then((why) => ({ code: 1, line: `the room ended the connection: ${why}` })),
      ]);
      (outcome.code === 0 ? stdout : stderr).write(`${outcome.line}\n`);
      return outcome.code;
    } finally {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      session.stop();
      player.close();
      await mpv.stop();
    }
  }
}

/**
 * Loaded when the command runs, not at the top: `svc` loads every command to start, and these
 * bring the web client's connection and engine, which only this command needs. The container
 * image leaves the web client's modules out (a server has no mpv), so there it says so.
 */
async function loadWatch() {
  try {
    const [roomLink, roomApi, signIn, joinRoom, mpvProcess, mpvPlayer, watchSession] = await Promise.all([
      import('../watch/room-link.js'),
      import('../watch/room-api.js'),
      import('../watch/sign-in.js'),
      import('../watch/join-room.js'),
      import('../watch/mpv-process.js'),
      import('../watch/mpv-player.js'),
      import('../watch/watch-session.js'),
    ]);
    return { ...roomLink, ...roomApi, ...signIn, ...joinRoom, ...mpvProcess, ...mpvPlayer, ...watchSession };
  } catch (err) {
    if ((err as { code?: unknown }).code !== 'ERR_MODULE_NOT_FOUND') throw err;
    throw new AppError('failed_precondition', 'svc watch is not part of this installation (the container image has only the server): run it from a checkout of svc on the computer that runs mpv (npm run build, then npm run svc -- watch <link>)', [], { cause: err });
  }
}
