/**
 * Hedged activate requests, with stand-in requests: a wave of copies goes out at once and
 * another whenever none has answered within the hedge interval, up to the allowed waves; the
 * first answer wins; an error other than a timeout ends it at once; and it always settles by its
 * deadline, even when a hedge's timer runs late past it (a busy event loop), which once left a
 * send waiting forever.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import test from 'ava';
import { ErrorCode, NatsError } from 'nats';
import { ACTIVATE_HEDGE_MS, ACTIVATE_HEDGE_WAVE, ACTIVATE_HEDGE_WAVES, hedged } from '../../../actors/runtime/hedged-request.js';
import { isNoResponders, isRequestTimeout } from '../../../actors/runtime/nats-errors.js';

/** A request that never answers: it times out after the time it was given. */
const silent = (timeoutMs: number): Promise<string> =>
  sleep(timeoutMs).then(() => {
    throw NatsError.errorForCode(ErrorCode.Timeout);
  });

test('a request answered in time goes out in one wave', async (t) => {
  const sent: number[] = [];
  const answer = await hedged((left) => {
    sent.push(left);
    return Promise.resolve('active');
  }, 500);
  t.is(answer, 'active');
  await sleep(ACTIVATE_HEDGE_MS * 2);
  t.is(sent.length, ACTIVATE_HEDGE_WAVE, 'no wave after the answer');
});

test('a wave that gets no answer is followed by another, and the copy that answers wins', async (t) => {
  let copies = 0;
  const answer = await hedged((left) => {
    copies += 1;
    // The first wave went to a paused host; the next copy reaches a live one.
    return copies <= ACTIVATE_HEDGE_WAVE ? silent(left) : Promise.resolve(`copy ${copies}`);
  }, 500);
  t.is(answer, `copy ${ACTIVATE_HEDGE_WAVE + 1}`, 'the second wave answered while the first still waited');
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
  t.is(copies, ACTIVATE_HEDGE_WAVE * ACTIVATE_HEDGE_WAVES);
});

test('no responders ends it at once, without another wave', async (t) => {
  let copies = 0;
  const error = await t.throwsAsync(
    hedged(() => {
      copies += 1;
      return Promise.reject(NatsError.errorForCode(ErrorCode.NoResponders));
    }, 500),
  );
  t.true(isNoResponders(error));
  await sleep(ACTIVATE_HEDGE_MS * 2);
  t.is(copies, ACTIVATE_HEDGE_WAVE);
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
  t.is(copies, ACTIVATE_HEDGE_WAVE);
});
