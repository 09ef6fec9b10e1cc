/**
 * What the call does when LiveKit ends it (web/src/call/rejoin.ts): leaving ends it, another tab
 * of the same member takes it over, the service taking us out is final, and anything else (the
 * SFU node died, the server shut down, the room moved) joins again with a new grant, at once and
 * then backing off.
 */
import test from 'ava';
import { afterDisconnect, DISCONNECT, REJOIN_ATTEMPTS, rejoinDelayMs } from '../../../web/src/call/rejoin.js';

test('only a loss of the server, not a decision, makes the call join again', (t) => {
  t.is(afterDisconnect(DISCONNECT.CLIENT_INITIATED), 'ended');
  t.is(afterDisconnect(DISCONNECT.DUPLICATE_IDENTITY), 'elsewhere');
  t.is(afterDisconnect(DISCONNECT.PARTICIPANT_REMOVED), 'removed');
  for (const reason of [undefined, DISCONNECT.UNKNOWN_REASON, DISCONNECT.SERVER_SHUTDOWN, DISCONNECT.ROOM_DELETED, 6, 7, 8, 10, 14]) {
    t.is(afterDisconnect(reason), 'rejoin', `reason ${String(reason)}`);
  }
});

test('the first attempt goes at once, the next ones back off up to 8 s', (t) => {
  const delays = Array.from({ length: REJOIN_ATTEMPTS }, (_, attempt) => rejoinDelayMs(attempt));
  t.is(delays[0], 0);
  t.is(delays[1], 500);
  for (let index = 2; index < delays.length; index += 1) t.true(delays[index]! >= delays[index - 1]!);
  t.is(rejoinDelayMs(20), 8_000);
  // Every attempt together stays within a quarter of a minute: a call comes back or says it could not.
  t.true(delays.reduce((sum, delay) => sum + delay, 0) <= 16_000);
});
