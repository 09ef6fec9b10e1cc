/**
 * The VOD watch of web/src/player/hls-restart.ts against a stand-in element and hls.js: a load
 * that shows no picture is restarted where the room is, again and again with growing waits; a
 * picture ends the watch until the element seeks or waits for data; stopping removes it all.
 */
import test from 'ava';
import { restartWhenStuck } from '../../../web/src/player/hls-restart.js';
import { waitFor } from '../../fixtures/deadline.js';

/** A <video> as the watch sees it: its readyState and events, set by the test as a browser would. */
class StandInVideo {
  readyState = 0;
  currentTime = 0;
  private readonly listeners = new Map<string, Set<() => void>>();
  addEventListener(type: string, listener: () => void): void {
    this.listeners.set(type, (this.listeners.get(type) ?? new Set()).add(listener));
  }
  removeEventListener(type: string, listener: () => void): void {
    this.listeners.get(type)?.delete(listener);
  }
  listenerCount(): number {
    return [...this.listeners.values()].reduce((sum, set) => sum + set.size, 0);
  }
  /** The element reaches `readyState` and says so with `event`. */
  reach(readyState: number, event: string): void {
    this.readyState = readyState;
    for (const listener of this.listeners.get(event) ?? []) listener();
  }
}

/** hls.js as the watch drives it: every stopLoad and startLoad, in order, with the local time. */
function standInHls() {
  const calls: Array<{ call: 'stop' | 'start'; position?: number; at: number }> = [];
  return {
    calls,
    starts: () => calls.filter((entry) => entry.call === 'start'),
    stopLoad: () => void calls.push({ call: 'stop', at: Date.now() }),
    startLoad: (position?: number) => void calls.push({ call: 'start', ...(position !== undefined ? { position } : {}), at: Date.now() }),
  };
}

const FIRST_MS = 40;

test('a load that shows no picture is restarted from where the room is, each time after twice the wait', async (t) => {
  const video = new StandInVideo();
  const hls = standInHls();
  let room = 12.5;
  const stop = restartWhenStuck(video, hls, () => room, FIRST_MS);
  await waitFor('the first restart', () => hls.starts().length >= 1 || undefined, 5_000, 5);
  t.deepEqual(hls.calls.map((entry) => entry.call), ['stop', 'start'], 'what was in flight is stopped before loading anew');
  t.is(hls.starts()[0]!.position, 12.5);
  room = 20;
  await waitFor('the second restart', () => hls.starts().length >= 2 || undefined, 5_000, 5);
  t.is(hls.starts()[1]!.position, 20, 'the second restart starts where the room is by then');
  t.true(hls.starts()[1]!.at - hls.starts()[0]!.at >= 2 * FIRST_MS - 5, 'the second try waited twice as long');
  stop();
});

test('a picture ends the watch; a seek without one starts it again; without the room position the element\'s own counts', async (t) => {
  const video = new StandInVideo();
  const hls = standInHls();
  const stop = restartWhenStuck(video, hls, () => undefined, FIRST_MS);
  video.reach(2, 'loadeddata');
  // Past the first wait with the picture there: nothing was restarted.
  await new Promise((resolve) => setTimeout(resolve, 3 * FIRST_MS));
  t.deepEqual(hls.calls, []);
  video.currentTime = 31;
  video.reach(1, 'seeking');
  await waitFor('the restart after the seek', () => hls.starts()[0], 5_000, 5);
  t.is(hls.starts()[0]!.position, 31);
  stop();
});

test('stopping the watch removes its listeners and its timer', async (t) => {
  const video = new StandInVideo();
  const hls = standInHls();
  const stop = restartWhenStuck(video, hls, () => 3, FIRST_MS);
  t.true(video.listenerCount() > 0);
  stop();
  t.is(video.listenerCount(), 0);
  await new Promise((resolve) => setTimeout(resolve, 3 * FIRST_MS));
  t.deepEqual(hls.calls, [], 'no restart after the stop');
});
