/**
 * The lock screen's actions (web/src/player/media-session.ts): which ones a member gets by their
 * permissions and which room command each sends, and the position the lock screen shows.
 */
import test from 'ava';
import { lockScreenHandlers, lockScreenPosition, type RoomSteering } from '../../../web/src/player/media-session.js';

/** A steering that writes down what was sent. */
function recorder(): { sent: string[]; steering: RoomSteering } {
  const sent: string[] = [];
  return {
    sent,
    steering: {
      play: () => sent.push('play'),
      pause: () => sent.push('pause'),
      seek: (position) => sent.push(`seek ${position}`),
      next: () => sent.push('next'),
      previous: () => sent.push('previous'),
      refuse: () => sent.push('refused'),
    },
  };
}

test('a member who steers: play, pause, seek (absolute and relative, kept inside the item), next and previous', (t) => {
  const { sent, steering } = recorder();
  const handlers = lockScreenHandlers({ steer: true, skip: true, seek: true }, steering, () => 30, () => 60);
  handlers.play?.({});
  handlers.pause?.({});
  handlers.seekto?.({ seekTime: 12.5 });
  handlers.seekto?.({ seekTime: 99 });
  handlers.seekbackward?.({});
  handlers.seekforward?.({ seekOffset: 5 });
  handlers.seekforward?.({ seekOffset: 45 });
  handlers.nexttrack?.({});
  handlers.previoustrack?.({});
  t.deepEqual(sent, ['play', 'pause', 'seek 12.5', 'seek 60', 'seek 20', 'seek 35', 'seek 60', 'next', 'previous']);
});

test('a member without control_playback: play and pause refuse (the browser would otherwise pause the element), the rest are absent', (t) => {
  const { sent, steering } = recorder();
  const handlers = lockScreenHandlers({ steer: false, skip: false, seek: false }, steering, () => 30, () => 60);
  handlers.play?.({});
  handlers.pause?.({});
  t.deepEqual(sent, ['refused', 'refused']);
  t.deepEqual(
    Object.entries(handlers).filter(([, handler]) => handler !== null).map(([action]) => action),
    ['play', 'pause'],
  );
});

test('next and previous need set_current_media too; seeking needs media that can seek', (t) => {
  const { steering } = recorder();
  const noSkip = lockScreenHandlers({ steer: true, skip: false, seek: false }, steering, () => 0, () => 0);
  t.is(noSkip.nexttrack, null);
  t.is(noSkip.previoustrack, null);
  t.is(noSkip.seekto, null, 'live media or an unknown length');
  t.not(noSkip.pause, null);
});

test("the position: the room's, extrapolated at its rate, inside [0, duration]; none without a length", (t) => {
  const playing = { mediaId: 'm', playing: true, position: 10, rate: 1.5, updatedAt: 1_000_000 };
  t.deepEqual(lockScreenPosition(playing, 1_004_000, 60), { duration: 60, playbackRate: 1.5, position: 16 });
  t.deepEqual(lockScreenPosition(playing, 1_100_000, 60), { duration: 60, playbackRate: 1.5, position: 60 }, 'past the end');
  t.deepEqual(lockScreenPosition(playing, 999_000, 60), { duration: 60, playbackRate: 1.5, position: 10 }, 'a scheduled start not reached yet');
  t.deepEqual(lockScreenPosition({ ...playing, playing: false }, 1_004_000, 60), { duration: 60, playbackRate: 1.5, position: 10 });
  t.is(lockScreenPosition(playing, 1_004_000, undefined), null);
  t.is(lockScreenPosition(playing, 1_004_000, Number.POSITIVE_INFINITY), null, 'live');
});
