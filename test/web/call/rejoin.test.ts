/**
 * What the call does when LiveKit ends it (web/src/call/rejoin.ts): leaving ends it, another tab
 * of the same member takes it over, the service taking us out is final, and anything else (the
 * SFU node died, the server shut down, the room moved) joins again with a new grant, at once and
 * then backing off.
 */
import test from 'ava';
import { afterDisconnect, DISCONNECT, gone, noteFlow, OWN_RECONNECT_MS, ownReconnectDelayMs, REJOIN_ATTEMPTS, rejoinDelayMs, rejoinTimeoutMs, SILENCE_LOST_MS } from '../../../web/src/call/rejoin.js';

test('only a loss of the server, not a decision, makes the call join again', (t) => {
  t.is(afterDisconnect(DISCONNECT.CLIENT_INITIATED), 'ended');
  t.is(afterDisconnect(DISCONNECT.DUPLICATE_IDENTITY), 'elsewhere');
  t.is(afterDisconnect(DISCONNECT.PARTICIPANT_REMOVED), 'removed');
  for (const reason of [undefined, DISCONNECT.UNKNOWN_REASON, DISCONNECT.SERVER_SHUTDOWN, DISCONNECT.ROOM_DELETED, 6, 7, 8, 10, 14]) {
    t.is(afterDisconnect(reason), 'rejoin', `reason ${String(reason)}`);
  }
});

test('the first attempts go at once, each giving its join up sooner than the next; later ones back off up to 8 s', (t) => {
  const delays = Array.from({ length: REJOIN_ATTEMPTS }, (_, attempt) => rejoinDelayMs(attempt));
  t.deepEqual(delays.slice(0, 3), [0, 0, 0]);
  for (let index = 1; index < delays.length; index += 1) t.true(delays[index]! >= delays[index - 1]!);
  t.is(rejoinDelayMs(20), 8_000);
  // A join not accepted within a second is asked again: a dead node's rooms land on a live one
  // in 2.5-4.2 s that way (docs/2026-11-29-sfu-deployment.md), within the 5 s.
  t.is(rejoinTimeoutMs(0), 1_000);
  t.true(rejoinTimeoutMs(0) + rejoinTimeoutMs(1) + rejoinTimeoutMs(2) >= 5_000);
  t.is(rejoinTimeoutMs(10), 15_000);
});

test("LiveKit's own reconnection gets a few quick tries, then the call asks for a new grant", (t) => {
  t.is(ownReconnectDelayMs(0, 0), 0);
  t.is(ownReconnectDelayMs(1, 200), 300);
  t.is(ownReconnectDelayMs(3, 1_000), null);
  t.is(ownReconnectDelayMs(1, OWN_RECONNECT_MS), null);
});

test('a link is lost when every track it receives stops moving for two seconds, and not while one moves or none is received', (t) => {
  t.false(gone([], 10_000), 'nothing received (alone in the call): never lost');
  let voice = noteFlow(undefined, 10, 0);
  let camera = noteFlow(undefined, 50, 0);
  voice = noteFlow(voice, 10, 1_000);
  camera = noteFlow(camera, 90, 1_000);
  t.is(voice.movedAt, 0, 'the same count keeps the time it last moved');
  t.is(camera.movedAt, 1_000);
  t.false(gone([voice, camera], SILENCE_LOST_MS + 500), 'the camera still moved 1.5 s ago');
  t.true(gone([voice, camera], 1_000 + SILENCE_LOST_MS));
});
