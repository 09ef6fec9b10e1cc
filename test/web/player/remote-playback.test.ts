/**
 * Casting (web/src/player/remote-playback.ts) against a stand-in of the element's `remote`
 * (RemotePlayback), which Chromium without a Cast device cannot exercise: availability from
 * watchAvailability, the element put at the room's position before the picker, the states
 * connecting, connected and disconnected from the element's events, and clean-up.
 */
import test from 'ava';
import { RemoteScreen, type RemotePlaybackLike, type RemoteState } from '../../../web/src/player/remote-playback.js';

/** A RemotePlayback that behaves as the spec says, driven by the test as a device would. */
class StandInRemote implements RemotePlaybackLike {
  state: RemoteState = 'disconnected';
  watching = new Map<number, (available: boolean) => void>();
  prompts: number[] = [];
  private nextId = 1;
  private readonly listeners = new Map<string, Set<() => void>>();
  constructor(
    private readonly element: { currentTime: number },
    private readonly supported = true,
  ) {}
  watchAvailability(callback: (available: boolean) => void): Promise<number> {
    if (!this.supported) return Promise.reject(new DOMException('not supported', 'NotSupportedError'));
    const id = this.nextId++;
    this.watching.set(id, callback);
    return Promise.resolve(id);
  }
  cancelWatchAvailability(id?: number): Promise<void> {
    if (id === undefined) this.watching.clear();
    else this.watching.delete(id);
    return Promise.resolve();
  }
  prompt(): Promise<void> {
    // The picker opens with the element where the page put it.
    this.prompts.push(this.element.currentTime);
    return Promise.resolve();
  }
  addEventListener(type: string, listener: () => void): void {
    const set = this.listeners.get(type) ?? new Set();
    set.add(listener);
    this.listeners.set(type, set);
  }
  removeEventListener(type: string, listener: () => void): void {
    this.listeners.get(type)?.delete(listener);
  }
  /** A device says it is there or gone. */
  devices(available: boolean): void {
    for (const callback of this.watching.values()) callback(available);
  }
  /** The session moves to `state`, with its event. */
  move(state: RemoteState): void {
    this.state = state;
    const type = state === 'connecting' ? 'connecting' : state === 'connected' ? 'connect' : 'disconnect';
    for (const listener of this.listeners.get(type) ?? []) listener();
  }
  listenerCount(): number {
    return [...this.listeners.values()].reduce((sum, set) => sum + set.size, 0);
  }
}

function castable(supported = true) {
  const element = { currentTime: 3, remote: undefined as unknown as StandInRemote };
  element.remote = new StandInRemote(element, supported);
  return element;
}

/** What a promise rejected with (DOMException is not an Error for ava's throwsAsync). */
const rejection = (promise: Promise<unknown>) => promise.then(() => null, (error: unknown) => (error as { name?: string }).name);

const settle = () => new Promise((resolve) => setImmediate(resolve));

test('available only while the browser says a device is there', async (t) => {
  const element = castable();
  const screen = new RemoteScreen(element);
  await settle();
  t.false(screen.available.value);
  element.remote.devices(true);
  t.true(screen.available.value);
  element.remote.devices(false);
  t.false(screen.available.value);
});

test('where the platform cannot watch for devices, or the page disabled remote playback, never available', async (t) => {
  const unsupported = new RemoteScreen(castable(false));
  await settle();
  t.false(unsupported.available.value);
  const disabled = castable();
  const off = new RemoteScreen({ ...disabled, disableRemotePlayback: true });
  await settle();
  t.is(disabled.remote.watching.size, 0);
  t.false(off.available.value);
  t.is(await rejection(off.start(10)), 'NotSupportedError');
});

test("start puts the element at the room's position before the picker opens; the states follow the session", async (t) => {
  const element = castable();
  const screen = new RemoteScreen(element);
  await settle();
  element.remote.devices(true);
  await screen.start(42.5);
  t.deepEqual(element.remote.prompts, [42.5]);
  element.remote.move('connecting');
  t.is(screen.state.value, 'connecting');
  element.remote.move('connected');
  t.is(screen.state.value, 'connected');
  // While connected the picker is where the viewer stops: the element is not moved then.
  await screen.start(undefined);
  t.deepEqual(element.remote.prompts, [42.5, 42.5]);
  element.remote.move('disconnected');
  t.is(screen.state.value, 'disconnected');
});

test('a picker dismissed rejects, and nothing changes', async (t) => {
  const element = castable();
  element.remote.prompt = () => Promise.reject(new DOMException('dismissed', 'NotAllowedError'));
  const screen = new RemoteScreen(element);
  t.is(await rejection(screen.start(5)), 'NotAllowedError');
  t.is(screen.state.value, 'disconnected');
});

test('a session already on when the player opens is seen; stop forgets the element', async (t) => {
  const element = castable();
  element.remote.state = 'connected';
  const screen = new RemoteScreen(element);
  await settle();
  t.is(screen.state.value, 'connected');
  t.is(element.remote.watching.size, 1);
  screen.stop();
  await settle();
  t.is(element.remote.watching.size, 0);
  t.is(element.remote.listenerCount(), 0);
});
