/**
 * Casting the room's video to another screen (the Remote Playback API: Chromium's Cast, Safari's
 * AirPlay picker) for one <video> element. `available` says whether the browser sees a device
 * (the Cast button shows only then); `start` puts the element at the room's position before the
 * browser's picker opens, so the other screen starts where the room is; `state` follows the
 * element's `remote` (connecting, connected, disconnected). While connected the element does not
 * draw, but its `currentTime`, `paused` and rate are the remote player's: the sync keeps
 * following the room through it, and the page says the picture is on the other screen.
 *
 * Typed by the fields it uses, not the DOM's types, so the unit tests drive it with a stand-in.
 */
import { signal } from '@preact/signals';

export type RemoteState = 'disconnected' | 'connecting' | 'connected';

/** The element's `remote` (RemotePlayback). */
export interface RemotePlaybackLike {
  readonly state: RemoteState;
  watchAvailability(callback: (available: boolean) => void): Promise<number>;
  cancelWatchAvailability(id?: number): Promise<void>;
  prompt(): Promise<void>;
  addEventListener(type: 'connecting' | 'connect' | 'disconnect', listener: () => void): void;
  removeEventListener(type: 'connecting' | 'connect' | 'disconnect', listener: () => void): void;
}

/** The part of the <video> element casting needs. */
export interface CastableElement {
  currentTime: number;
  disableRemotePlayback?: boolean;
  readonly remote?: RemotePlaybackLike;
}

const EVENTS = ['connecting', 'connect', 'disconnect'] as const;

export class RemoteScreen {
  /** The browser sees a device to cast to (false where the API is missing or refused to watch). */
  readonly available = signal(false);
  readonly state = signal<RemoteState>('disconnected');
  private watchId: number | undefined;
  private stopped = false;
  private readonly update = (): void => {
    if (this.remote) this.state.value = this.remote.state;
  };

  constructor(private readonly element: CastableElement) {
    const remote = this.remote;
    if (!remote) return;
    this.state.value = remote.state;
    for (const type of EVENTS) remote.addEventListener(type, this.update);
    // Rejects with NotSupportedError where the platform cannot watch (Chromium without Cast, a
    // headless one): then the button stays away, unless a connection starts some other way.
    remote
      .watchAvailability((available) => {
        this.available.value = available;
      })
      .then((id) => {
        if (this.stopped) void remote.cancelWatchAvailability(id).catch(() => undefined);
        else this.watchId = id;
      })
      .catch(() => {
        this.available.value = false;
      });
  }

  private get remote(): RemotePlaybackLike | undefined {
    return this.element.disableRemotePlayback ? undefined : this.element.remote;
  }

  /**
   * Opens the browser's device picker (needs a user gesture: call it from a click), the element
   * put first at `position`, the room's position now (undefined: where the element is). Resolves
   * when the picker closes; rejects when it was dismissed or failed (NotAllowedError, NotFoundError).
   */
  async start(position: number | undefined): Promise<void> {
    const remote = this.remote;
    if (!remote) throw new DOMException('Remote playback is not available', 'NotSupportedError');
    if (position !== undefined && Number.isFinite(position)) this.element.currentTime = position;
    await remote.prompt();
    this.update();
  }

  stop(): void {
    this.stopped = true;
    const remote = this.remote;
    if (!remote) return;
    for (const type of EVENTS) remote.removeEventListener(type, this.update);
    if (this.watchId !== undefined) void remote.cancelWatchAvailability(this.watchId).catch(() => undefined);
  }
}
