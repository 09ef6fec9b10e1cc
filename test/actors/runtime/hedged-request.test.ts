/**
 * Hedged activate requests, with stand-in requests: a copy goes out when none has answered
 * within the hedge interval, at most twice more; the first answer wins; an error other than a
 * timeout ends it at once; and it always settles by its deadline, even when a hedge's timer runs
 * late past it (a busy event loop), which once left a send waiting forever.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import test from 'ava';
import { ErrorCode, NatsError } from 'nats';
import { ACTIVATE_HEDGE_MS, ACTIVATE_HEDGES, hedged } from '../../../actors/runtime/hedged-request.js';
import { isNoResponders, isRequestTimeout } from '../../../actors/runtime/nats-errors.js';

/** A request that never answers: it times out after the time it was given. */
const silent = (timeoutMs: number): Promise<string> =>
  sleep(timeoutMs).then(() => {
    throw NatsError.errorForCode(ErrorCode.Timeout);
  });

test('a request answered in time is sent once', async (t) => {
  const sent: number[] = [];
  const answer = await hedged((left) => {
    sent.push(left);
    return Promise.resolve('active');
  }, 500);
  t.is(answer, 'active');
  t.is(sent.length, 1);
});

test('a request that gets no answer goes out again, and the copy that answers wins', async (t) => {
  let copies = 0;
  const answer = await hedged((left) => {
    copies += 1;
    // The first copy went to a paused host; the second reaches a live one.
    return copies === 1 ? silent(left) : Promise.resolve(`copy ${copies}`);
  }, 500);
  t.is(answer, 'copy 2', 'the second copy answered while the first still waited');
});

test('at most the allowed copies go out, and silence everywhere ends in a timeout at the deadline', async (t) => {
  let copies = 0;
  // Long enough that a busy machine's late timers still send every copy before the deadline.
  const error = await t.throwsAsync(
    hedged((left) => {
      copies += 1;
      return silent(left);
    }, 3_000),
  );
  t.true(isRequestTimeout(error));
  t.is(copies, 1 + ACTIVATE_HEDGES);
});

test('no responders ends it at once, without copies', async (t) => {
  let copies = 0;
  const error = await t.throwsAsync(
    hedged(() => {
      copies += 1;
      return Promise.reject(NatsError.errorForCode(ErrorCode.NoResponders));
    }, 500),
  );
  t.true(isNoResponders(error));
  t.is(copies, 1);
});

test('a hedge timer that runs past the deadline still ends it with the timeout', async (t) => {
  let copies = 0;
  const timeoutMs = ACTIVATE_HEDGE_MS + 20;
  const pending = hedged((left) => {
    copies += 1;
    return silent(left);
  }, timeoutMs);
  // Block the event loop past the deadline, so the hedge's timer fires after it.
  const until = Date.now() + timeoutMs + 50;
  while (Date.now() < until) {
    // busy: the timer cannot run
  }
  const error = await t.throwsAsync(Promise.race([pending, sleep(2_000).then(() => 'still waiting')]).then((value) => {
    if (value === 'still waiting') throw new Error('the hedged request never settled');
    return value;
  }));
  t.true(isRequestTimeout(error), String(error));
  t.is(copies, 1);
});
