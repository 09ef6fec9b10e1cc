/**
 * One `svc watch` in a room: the realtime connection (the web client's, over `ws`), the
 * member's view of the room kept by the same rule the page uses (applyRoomEvent), mpv following
 * the room's current item (the queue: whatever becomes current is opened), the sync engine
 * keeping it in step, mpv's own keys turned into room commands, and the chat on mpv's OSD when
 * asked. What happens is said in lines on stdout (and, for what the viewer must see, on the OSD).
 */
import type { MemberRoomView, NowPlaying, PlaybackView } from '../../contracts/room/model.js';
import type { RoomCommand } from '../../contracts/room/commands.js';
import type { RoomEvent } from '../../contracts/room/events.js';
import { applyRoomEvent, RoomConnection, type ConnectionStatus } from '../../web/index.js';
import { chatLine } from './chat-osd.js';
import { planItem } from './item-source.js';
import type { MpvPlayer } from './mpv-player.js';
import { MpvSync } from './mpv-sync.js';
import { nodeEnvironment } from './node-socket.js';
import type { RoomApi } from './room-api.js';

export interface WatchOptions {
  chat: boolean;
  /** The viewer's copy of a "local file" item. */
  file?: string;
  /** A line for the person at the terminal. */
  log(line: string): void;
}

/** How long the engine waits for the room to answer the person's own command before it takes over again. */
const COMMAND_HOLD_MS = 3000;
/** Ask for a new signed URL this long before the current one stops working. */
const RENEW_BEFORE_MS = 60_000;

export class WatchSession {
  private view: MemberRoomView | null = null;
  readonly connection: RoomConnection;
  private readonly sync: MpvSync;
  /** The item mpv holds or is opening, and whether it could not play. */
  private current: string | null = null;
  private loadGeneration = 0;
  private renewTimer: ReturnType<typeof setTimeout> | null = null;
  private readonly stops: Array<() => void> = [];
  private readonly ended: Promise<ConnectionStatus & { state: 'ended' }>;

  constructor(
    private readonly api: RoomApi,
    readonly roomId: string,
    private readonly player: MpvPlayer,
    private readonly options: WatchOptions,
  ) {
    this.connection = new RoomConnection(
      roomId,
      {
        snapshot: (message) => {
          this.view = message.view;
          this.follow();
        },
        event: (message) => this.apply(message.event),
      },
      nodeEnvironment(api),
    );
    this.sync = new MpvSync(player, { playback: () => this.view?.playback ?? null, connection: this.connection });
    this.ended = new Promise((resolve) => {
      let wasOpen = false;
      this.stops.push(
        this.connection.status.subscribe((status) => {
          if (status.state === 'ended') resolve(status);
          if (status.state === 'open' && !wasOpen) this.sync.reconnected();
          if (status.state === 'reconnecting' && wasOpen) options.log(`connection lost; reconnecting in ${Math.round(status.inMs / 1000)} s${status.problem ? ` (${status.problem.message})` : ''}`);
          wasOpen = status.state === 'open';
        }),
      );
    });
  }

  /** Opens the connection; resolves once the room's socket is open (or rejects when it ended first). */
  async start(): Promise<void> {
    this.sync.start();
    this.stops.push(
      this.player.onUserPause(({ paused, position }) => this.userPause(paused, position)),
      this.player.onUserSeek((position) => this.userSeek(position)),
      this.player.onLoadError((why) => this.cannotPlay(why)),
    );
    void this.connection.open();
    const opened = new Promise<void>((resolve) => {
      const stop = this.connection.status.subscribe((status) => {
        if (status.state === 'open') {
          resolve();
          queueMicrotask(() => stop());
        }
      });
    });
    const ended = await Promise.race([opened.then(() => null), this.ended]);
    if (ended) throw new Error(`the room refused the connection: ${ended.reason || `close code ${ended.code}`}`);
  }

  /** Resolves when the room ends the connection for good (left, kicked, deleted, signed out). */
  whenEnded(): Promise<string> {
    return this.ended.then((status) => status.reason || `the room closed the connection (code ${status.code})`);
  }

  stop(): void {
    if (this.renewTimer) clearTimeout(this.renewTimer);
    for (const stop of this.stops) stop();
    this.sync.stop();
    this.connection.close();
  }

  private can(permission: string): boolean {
    return (this.view?.me.permissions as string[] | undefined)?.includes(permission) ?? false;
  }

  private apply(event: RoomEvent): void {
    if (this.view) this.view = applyRoomEvent(this.view, event);
    if (event.type === 'chat.message' && this.options.chat) this.player.say(chatLine(event.message), 6000);
    // My permissions follow my role and the room's overrides: ask the room again, as the page does.
    if (event.type === 'room.updated' || (event.type === 'member.updated' && event.member.userId === this.view?.me.userId)) void this.reloadStanding();
    if (event.type === 'playback' || event.type === 'media.checked') this.follow();
  }

  private async reloadStanding(): Promise<void> {
    const answer = await this.api.get<{ access: string; me: MemberRoomView['me'] }>(`/api/rooms/${encodeURIComponent(this.roomId)}`).catch(() => null);
    if (this.view && answer?.access === 'member') this.view = { ...this.view, me: answer.me };
  }

  /** Opens the room's current item when it changed (the queue moved on, someone chose another). */
  private follow(): void {
    const playback = this.view?.playback;
    const item = playback?.item ?? null;
    const mediaId = playback?.mediaId ?? null;
    if (mediaId === this.current) return;
    this.current = mediaId;
    void this.open(item, playback ?? null);
  }

  private async open(item: NowPlaying | null, playback: PlaybackView | null): Promise<void> {
    const generation = ++this.loadGeneration;
    if (this.renewTimer) clearTimeout(this.renewTimer);
    this.sync.setMedia(null, false);
    if (!item || !playback) {
      this.player.unload();
      this.options.log('nothing is playing in the room');
      this.player.say('Nothing is playing in the room', 4000);
      return;
    }
    let plan;
    try {
      plan = await planItem(this.api, this.roomId, item, this.options.file);
    } catch (err) {
      if (generation === this.loadGeneration) this.cannotPlay(`cannot play "${item.title}": ${err instanceof Error ? err.message : String(err)}`);
      return;
    }
    if (generation !== this.loadGeneration) return;
    if (plan.kind === 'cannot') {
      this.cannotPlay(plan.why);
      return;
    }
    this.sync.setMedia(item.id, plan.live);
    try {
      await this.player.load(plan.request);
    } catch (err) {
      if (generation === this.loadGeneration) this.cannotPlay(`mpv refused "${item.title}": ${err instanceof Error ? err.message : String(err)}`);
      return;
    }
    this.options.log(`now playing: ${item.title}${plan.live ? ' (live)' : ''}`);
    if (plan.expiresAt !== null) {
      // A signed URL stops working at expiresAt: open the item again with a new one before (the engine puts it back in step).
      this.renewTimer = setTimeout(
        () => {
          if (generation !== this.loadGeneration) return;
          this.current = null;
          this.follow();
        },
        Math.max(10_000, plan.expiresAt - Date.now() - RENEW_BEFORE_MS),
      );
    }
  }

  private cannotPlay(why: string): void {
    this.sync.setMedia(null, false);
    this.player.unload();
    this.options.log(why);
    this.player.say(why, 8000);
  }

  private userPause(paused: boolean, position: number): void {
    const playback = this.view?.playback;
    if (!playback || playback.mediaId === null) return;
    if (paused === !playback.playing) return; // already what the room does
    const command: RoomCommand = paused
      ? { kind: 'playback.pause', position, expectMediaId: playback.mediaId }
      : { kind: 'playback.play', startInMs: this.sync.startInMs('play'), expectMediaId: playback.mediaId };
    this.send(command, paused ? 'pause' : 'play');
  }

  private userSeek(position: number): void {
    const playback = this.view?.playback;
    if (!playback || playback.mediaId === null) return;
    this.send({ kind: 'playback.seek', position, startInMs: this.sync.startInMs('seek'), expectMediaId: playback.mediaId }, `seek to ${formatTime(position)}`);
  }

  /** The person's key as a room command: refused (no permission, or the room said no), mpv is put back in step. */
  private send(command: RoomCommand, what: string): void {
    if (!this.can('control_playback')) {
      this.refused(`you may not ${what.split(' ')[0]} in this room (it needs the control_playback permission)`);
      return;
    }
    this.sync.hold(COMMAND_HOLD_MS);
    const before = this.view?.playback;
    const sentAt = this.sync.serverNow();
    this.connection
      .command(command, sentAt === undefined ? {} : { sentAt })
      .then(() => {
        this.options.log(`you: ${what}`);
        this.releaseWhenApplied(before);
      })
      .catch((err: unknown) => this.refused(`the room refused your ${what.split(' ')[0]}: ${err instanceof Error ? err.message : String(err)}`));
  }

  /** Lets the engine go once the room's playback shows the command (or soon after the answer anyway). */
  private releaseWhenApplied(before: PlaybackView | undefined): void {
    const deadline = Date.now() + 1000;
    const check = (): void => {
      const now = this.view?.playback;
      if (now !== before || Date.now() >= deadline) this.sync.release();
      else setTimeout(check, 20);
    };
    check();
  }

  private refused(why: string): void {
    this.options.log(why);
    this.player.say(why, 4000);
    this.sync.release();
  }
}

function formatTime(seconds: number): string {
  const whole = Math.max(0, Math.round(seconds));
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = whole % 60;
  return `${h > 0 ? `${h}:${String(m).padStart(2, '0')}` : m}:${String(s).padStart(2, '0')}`;
}
