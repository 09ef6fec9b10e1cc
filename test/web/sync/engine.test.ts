/**
 * The sync engine against a simulated player and clock (test/web/sync/sim.ts): what users depend
 * on is that a player converges to the room quickly, without visible seeks for small drift,
 * without rate hunting, and starts with everyone at a scheduled instant.
 */
import test from 'ava';
import { SyncEngine, stepsFor } from '../../../web/src/sync/engine.js';
import { MAX_RATE_DEVIATION, SEEK_ONLY_THRESHOLD_MS, SEEK_THRESHOLD_MS, START_LATENCY_INITIAL_MS } from '../../../web/src/sync/thresholds.js';
import { FRAME_MS, playingRoom, Sim, T0 } from './sim.js';

/** The drift the engine last measured: how late the frame on screen is against the room. */
const onScreenLag = (sim: Sim): number => sim.results.filter((r) => r.driftMs !== null).at(-1)!.driftMs!;

function track(sim: Sim, seconds: number): Array<{ server: number; lag: number }> {
  const history: Array<{ server: number; lag: number }> = [];
  sim.run(seconds, (s) => history.push({ server: s.server, lag: s.lagMs() }));
  return history;
}

test('300 ms behind: converges with the rate only (no seek) and ends inside the dead band at the room rate', (t) => {
  const sim = new Sim({ room: playingRoom(110), mediaTime: 109.7, trueOffset: 1234, offsetError: 2, noiseMs: 2, seekLatencyMs: 250 });
  const history = track(sim, 15);
  t.is(sim.count('seek'), 0);
  t.true(sim.count('setRate') >= 2, 'a corrective rate, then the room rate');
  const within = sim.settledWithin(history, sim.engine.deadBandMs);
  t.not(within, null);
  t.true(within! < 9, `inside the dead band after ${within} s`);
  t.true(Math.abs(sim.lagMs()) < sim.engine.deadBandMs, `ends at ${sim.lagMs()} ms`);
  t.is(sim.rate, 1);
  for (const entry of sim.log) if (entry.action.type === 'setRate') t.true(Math.abs(entry.action.rate - 1) <= MAX_RATE_DEVIATION + 1e-9);
});

test('5 s off: exactly one seek (aimed ahead), then settles within 50 ms in under 3 s and stays without further seeks', (t) => {
  const sim = new Sim({ room: playingRoom(300), mediaTime: 295, seekLatencyMs: 250, trueOffset: -500, offsetError: -3, noiseMs: 2 });
  const history = track(sim, 20);
  t.is(sim.count('seek'), 1);
  const seek = sim.log.find((entry) => entry.action.type === 'seek')!.action as { position: number };
  t.true(seek.position > 300, 'aimed ahead of where the room was when seeking');
  const within50 = sim.settledWithin(history, 50);
  t.true(within50 !== null && within50 < 3, `within 50 ms after ${within50} s`);
  t.true(Math.abs(sim.lagMs()) < sim.engine.deadBandMs, `ends at ${sim.lagMs()} ms`);
  t.is(sim.rate, 1);
});

test('a late joiner (paused at 0, the room at 2 minutes) seeks once while paused, starts when the room reaches it, within 50 ms in under 3 s', (t) => {
  // Seeks slower than the first guess and the margin take a second seek: the test after this one.
  for (const seekLatencyMs of [100, 250, 350]) {
    const sim = new Sim({ room: playingRoom(120), mediaTime: 0, paused: true, seekLatencyMs, offsetError: 4, noiseMs: 2 });
    const history = track(sim, 10);
    t.is(sim.count('seek'), 1);
    t.is(sim.count('scheduleStart') + sim.count('play'), 1, 'one start');
    const within50 = sim.settledWithin(history, 50);
    t.true(within50 !== null && within50 < 3, `latency ${seekLatencyMs}: within 50 ms after ${within50} s`);
    t.true(Math.abs(sim.lagMs()) < sim.engine.deadBandMs);
  }
  const quick = new Sim({ room: playingRoom(120), mediaTime: 0, paused: true, seekLatencyMs: 100, offsetError: 4 });
  const history = track(quick, 2);
  const first = history.find((point) => point.server > quick.startedAt!)!.lag;
  t.true(Math.abs(first + 4) < 1, `a seek faster than the guess starts exactly but for the 4 ms clock error, not ${first} ms`);
});

test('a late joiner whose media has no metadata yet, whose seeks are slower than the guess and whose start-up is slower too, is within 50 ms in under 2 s', (t) => {
  // bench:sync (issue 26): a seek issued before the metadata looked landed at once (the element
  // reads the target, `seeking` stays false), so the start was scheduled before the real seek
  // ended; and a join seek that landed after its instant was followed by play(), running the
  // lag plus the start-up latency behind, which 5 % of rate closes at 50 ms a second.
  for (const seekLatencyMs of [100, 250, 450, 700]) {
    for (const startLatencyMs of [60, 110]) {
      const sim = new Sim({ room: playingRoom(120), mediaTime: 0, paused: true, metadataAfterMs: 300, seekLatencyMs, startLatencyMs, offsetError: 4, noiseMs: 2 });
      const history = track(sim, 10);
      const label = `seeks ${seekLatencyMs} ms, start-up ${startLatencyMs} ms`;
      t.true(sim.log.every((entry) => entry.server >= T0 + 300), `${label}: nothing before the metadata`);
      t.true(sim.count('seek') <= 2, `${label}: ${sim.count('seek')} seeks`);
      t.is(sim.count('scheduleStart') + sim.count('play'), 1, `${label}: one start`);
      const within50 = sim.settledWithin(history, 50);
      t.true(within50 !== null && within50 < 2, `${label}: within 50 ms after ${within50} s`);
      t.true(Math.abs(sim.lagMs()) < sim.engine.deadBandMs + 4, `${label}: ends at ${sim.lagMs()} ms (4 ms of it the clock's error)`);
    }
  }
});

test('a join seek that fetched and landed late is followed by one into the media it buffered, aimed with the quick latency of a buffered seek', (t) => {
  // bench:sync: a first seek fetching for 700 ms, then one 20 ms into what it buffered; aimed
  // with the fetch's latency, the second waited 900 ms for an instant it could have met at once.
  const sim = new Sim({
    room: playingRoom(120),
    mediaTime: 0,
    paused: true,
    metadataAfterMs: 300,
    seekLatencyMs: 600,
    bufferedSeekLatencyMs: 30,
    bufferAheadS: 5,
    startLatencyMs: 110,
    offsetError: 4,
  });
  const history = track(sim, 6);
  const seeks = sim.log.filter((entry) => entry.action.type === 'seek');
  t.is(seeks.length, 2);
  const started = sim.startedAt! - T0;
  t.true(started < 1400, `started at ${started} ms: the second seek landed at ${seeks[1]!.server - T0 + 30} ms`);
  const within50 = sim.settledWithin(history, 50);
  t.true(within50 !== null && within50 < 1.5, `within 50 ms after ${within50} s`);
  t.true(Math.abs(sim.lagMs()) < sim.engine.deadBandMs, `ends at ${sim.lagMs()} ms`);
});

test('a scheduled seek whose lead is shorter than this player takes to land: no start while it still seeks; it aims ahead and is in step without a rate correction', (t) => {
  // bench:sync on a busy machine, trying a 200 ms lead: buffered seeks took 130-250 ms. Started
  // by the timer mid-seek, a player ran 60-150 ms late and the rate took seconds to close it
  // ("seek → all within 50 ms": 3,400 ms).
  const sim = new Sim({ room: playingRoom(40), mediaTime: 40, bufferAheadS: 30, bufferedSeekLatencyMs: 260, seekLatencyMs: 600, offsetError: 2, startingCurrentTimeLeadMs: 100 });
  sim.run(3);
  t.is(sim.count('seek'), 0);
  const seekAt = sim.server;
  sim.room = { mediaId: 'm1', playing: true, position: 41, rate: 1, updatedAt: seekAt + 200 };
  const history = track(sim, 4);
  const after = sim.log.filter((entry) => entry.server >= seekAt);
  t.false(
    after.some((entry) => entry.action.type === 'play' && entry.whileSeeking),
    'nothing plays while a seek is in flight',
  );
  let inStepFrom: number | null = null;
  for (const point of history) {
    if (Math.abs(point.lag) >= 50) inStepFrom = null;
    else inStepFrom ??= point.server;
  }
  t.true(inStepFrom !== null && inStepFrom - seekAt < 1000, `within 50 ms ${inStepFrom === null ? 'never' : `${inStepFrom - seekAt} ms`} after the seek`);
  t.false(after.some((entry) => entry.action.type === 'setRate' && entry.action.rate !== 1), 'no rate correction was needed');
  t.true(Math.abs(sim.lagMs()) < sim.engine.deadBandMs, `ends at ${sim.lagMs()} ms`);
});

test('a start is measured from its frames: currentTime, ahead of the screen while starting, starts no correction the wrong way', (t) => {
  // bench:sync: the ticks between play() and the first frame read currentTime 150 ms ahead,
  // and the median of the first frames said "ahead": a joiner running behind slowed down.
  const sim = new Sim({ room: playingRoom(120), mediaTime: 0, paused: true, seekLatencyMs: 200, startLatencyMs: 130, startingCurrentTimeLeadMs: 150 });
  const history = track(sim, 6);
  const rates = sim.log.flatMap((entry) => (entry.action.type === 'setRate' ? [entry.action.rate] : []));
  t.true(rates.every((rate) => rate >= 1), `started 40 ms late, it never slows down: ${rates.join(', ')}`);
  const within50 = sim.settledWithin(history, 50);
  t.true(within50 !== null && within50 < 1, `within 50 ms after ${within50} s`);
  t.true(Math.abs(sim.lagMs()) < sim.engine.deadBandMs, `ends at ${sim.lagMs()} ms`);
});

test('a late joiner waits for its first clock sample rather than starting at the wrong place; with none it plays after a bound', (t) => {
  const sim = new Sim({ room: playingRoom(120), mediaTime: 0, paused: true, seekLatencyMs: 200, clockAfterMs: 300 });
  const history = track(sim, 5);
  t.true(sim.log.every((entry) => entry.server >= T0 + 300), 'nothing before the clock');
  t.is(sim.count('seek'), 1);
  t.is(sim.count('scheduleStart') + sim.count('play'), 1, 'one start');
  const within50 = sim.settledWithin(history, 50);
  t.true(within50 !== null && within50 < 1.5, `within 50 ms after ${within50} s`);

  const clockless = new Sim({ room: playingRoom(120), mediaTime: 0, paused: true, clockAfterMs: Number.POSITIVE_INFINITY });
  clockless.run(1.9);
  t.true(clockless.paused, 'waits up to the bound');
  clockless.run(0.2);
  t.false(clockless.paused, 'then plays uncorrected');
  t.is(clockless.count('seek'), 0);
});

test('no correction is issued while a seek is in flight (seeking set, no fresh frame yet)', (t) => {
  const sim = new Sim({ room: playingRoom(60), mediaTime: 30, seekLatencyMs: 2000 });
  sim.run(1);
  t.is(sim.count('seek'), 1);
  t.true(sim.seeking, 'still seeking after 1 s of a 2 s seek');
  t.deepEqual(sim.log.filter((entry) => entry.whileSeeking), []);
  t.true(sim.results.slice(1).every((result) => result.phase === 'seeking' && result.actions.length === 0));
  sim.run(25);
  const seeks = sim.log.filter((entry) => entry.action.type === 'seek');
  // Landing 1.85 s behind (2 s latency, 150 ms guess): the guess learns half the error per
  // landing, so two more seeks, each after the cooldown, and never while one is in flight.
  t.is(seeks.length, 3);
  for (let i = 1; i < seeks.length; i++) t.true(seeks[i]!.server - seeks[i - 1]!.server >= 3000);
  t.deepEqual(sim.log.filter((entry) => entry.whileSeeking), []);
  t.true(Math.abs(sim.lagMs()) < sim.engine.deadBandMs, `ends at ${sim.lagMs()} ms`);
});

test('inside the dead band: no actions at all', (t) => {
  const sim = new Sim({ room: playingRoom(10), mediaTime: 10 - 0.005, noiseMs: 1 });
  sim.run(10);
  t.deepEqual(sim.log, []);
  t.true(Math.abs(sim.lagMs() - 5) < 1e-6);
});

test('whole frames on a 60 Hz screen: a 60 fps player showing each frame a refresh early moves to the refresh an exact player uses', (t) => {
  // Refreshes come 2 ms after the room's frame boundaries. An exact player shows each frame
  // 2 ms late; one 15.5 ms ahead shows it 14.7 ms early: a refresh apart for good if that
  // passed as in sync.
  const display = { videoFps: 60, refreshPhaseMs: 2 };
  const exact = new Sim({ room: playingRoom(500), mediaTime: 500.002, ...display });
  exact.run(10);
  t.deepEqual(exact.log, []);
  t.true(Math.abs(onScreenLag(exact) - 2) < 0.1, `the exact player shows frames ${onScreenLag(exact)} ms late`);

  const early = new Sim({ room: playingRoom(500), mediaTime: 500.002 + 0.0155, ...display });
  const history = track(early, 10);
  t.true(history.some((point) => Math.abs(point.lag + 15.5) < 0.1), 'starts 15.5 ms ahead');
  t.true(Math.abs(onScreenLag(early) - onScreenLag(exact)) < 0.1, `ends showing frames ${onScreenLag(early)} ms late, as the exact player`);
  const rates = early.log.flatMap((entry) => (entry.action.type === 'setRate' ? [entry.action.rate] : []));
  t.true(rates.length >= 2 && rates.length <= 3, `one correction: ${rates.join(', ')}`);
  t.true(rates.slice(0, -1).every((rate) => rate < 1), 'slower, maybe in a smaller step, then the room rate');
  t.is(early.rate, 1);
  t.is(early.count('seek'), 0);
});

test('whole frames: a correction ends at the nearest frame, not beyond it', (t) => {
  // Refreshes 6 ms after the room's frame boundaries: an exact player shows frames 6 ms late,
  // one 16.5 ms behind shows them 22.7 ms late. The correction must stop at 6 (half a frame is
  // as near as frames go); pushing on to -10.7 left the dead band on the other side.
  const sim = new Sim({ room: playingRoom(500), mediaTime: 500.006 - 0.0165, videoFps: 60, refreshPhaseMs: 6 });
  sim.run(15);
  t.true(Math.abs(onScreenLag(sim) - 6) < 0.5, `ends showing frames ${onScreenLag(sim)} ms late`);
  const rates = sim.log.flatMap((entry) => (entry.action.type === 'setRate' ? [entry.action.rate] : []));
  t.true(rates.slice(0, -1).every((rate) => rate > 1) && rates.at(-1) === 1, `one correction, faster then the room rate: ${rates.join(', ')}`);
});

test('whole frames: at 30 fps the dead band is just over half a frame, so frames a refresh off the room are left alone (no hunting)', (t) => {
  const engine = new SyncEngine();
  const sim = new Sim({ room: playingRoom(500), mediaTime: 500.002 + 0.0155, videoFps: 30, refreshPhaseMs: 2, engine });
  sim.run(20);
  t.true(Math.abs(onScreenLag(sim) + 14.7) < 0.5, `shows frames ${-onScreenLag(sim)} ms early`);
  t.true(Math.abs(engine.deadBandMs - 0.55 * (1000 / 30)) < 0.1, `band ${engine.deadBandMs} ms`);
  t.deepEqual(sim.log, []);
});

test('no rate flip-flop: a minute of steady playback with noise, outliers and a drifting clock changes the rate rarely', (t) => {
  const sim = new Sim({ room: playingRoom(500), mediaTime: 500, noiseMs: 4, outlierRate: 0.02, outlierMs: 60, ppm: 80, trueOffset: 77, seed: 7 });
  sim.run(60);
  t.is(sim.count('seek'), 0);
  t.true(sim.count('setRate') <= 4, `${sim.count('setRate')} rate changes`);
  t.true(Math.abs(sim.lagMs()) < 25, `ends at ${sim.lagMs()} ms`);
});

test('scheduled start: holds at the position, calls play() the start-up latency early, and runs from the local instant updatedAt maps to', (t) => {
  const start = T0 + 1200;
  const room = { mediaId: 'm1', playing: true, position: 30, rate: 1, updatedAt: start };
  const sim = new Sim({ room, mediaTime: 12, paused: false, trueOffset: 40_000, offsetError: 1, seekLatencyMs: 150 });
  const first = sim.frame()!;
  t.is(first.phase, 'seeking');
  t.like(first.actions.find((a) => a.type === 'scheduleStart'), { type: 'scheduleStart', at: start - 40_001 - START_LATENCY_INITIAL_MS, position: 30 });
  t.true(first.actions.some((a) => a.type === 'pause'));
  t.true(first.actions.some((a) => a.type === 'seek' && a.position === 30));
  sim.run(1, (s) => {
    if (s.server > T0 + 200 && s.server < start - 5) t.true(s.paused && Math.abs(s.mediaTime - 30) < 1e-9, 'held at the position');
  });
  sim.run(2);
  t.not(sim.startedAt, null);
  t.true(Math.abs(sim.startedAt! - (start - 1)) < 0.01, `started at server ${sim.startedAt! - start} ms from the instant (1 ms clock error)`);
  t.is(sim.count('scheduleStart'), 1);
  t.true(Math.abs(sim.lagMs()) < sim.engine.deadBandMs);
  t.is(sim.count('setRate'), 0, 'started exactly: nothing to correct');
});

test('the start-up latency is learned from scheduled starts: later starts land on their instant', (t) => {
  // This player's clock runs 110 ms after play(), later than the first guess: each start teaches half the rest.
  const engine = new SyncEngine();
  const sim = new Sim({ room: playingRoom(0), mediaTime: 0, paused: true, startLatencyMs: 110, seekLatencyMs: 100, engine });
  const lateness: number[] = [];
  for (let i = 0; i < 4; i++) {
    // Someone plays the room from 10 s on, starting 500 ms from now.
    const start = sim.server + 500;
    sim.room = { mediaId: 'm1', playing: true, position: 10, rate: 1, updatedAt: start };
    sim.paused = true;
    sim.run(2);
    lateness.push(sim.startedAt! - start);
  }
  t.true(Math.abs(lateness[0]! - (110 - START_LATENCY_INITIAL_MS)) < 1, `the first start is late by what the guess missed: ${lateness[0]} ms`);
  t.true(Math.abs(lateness[3]!) < 10, `the fourth is within 10 ms: ${lateness[3]} ms`);
  t.true(Math.abs(engine.startLatencyMs - 110) < 15, `learned ${engine.startLatencyMs} ms`);
});

test('a paused room holds: pause, seek to the position once, then nothing', (t) => {
  const room = { mediaId: 'm1', playing: false, position: 42, rate: 1, updatedAt: T0 - 5000 };
  const sim = new Sim({ room, mediaTime: 41, paused: false });
  sim.run(5);
  t.is(sim.count('pause'), 1);
  t.is(sim.count('seek'), 1);
  t.is(sim.log.length, 2);
  t.true(sim.paused);
  t.is(sim.mediaTime, 42);
  const close = new Sim({ room, mediaTime: 42.02, paused: true });
  close.run(2);
  t.deepEqual(close.log, [], 'within a frame of the position: left alone');
});

test('room rate 1.5: the corrective rate is relative to it, never within 1 % of it, and 1.5 returns', (t) => {
  const sim = new Sim({ room: playingRoom(80, 1.5), mediaTime: 80 - 0.3, noiseMs: 2 });
  sim.rate = 1.5;
  const history = track(sim, 15);
  t.is(sim.count('seek'), 0);
  const rates = sim.log.flatMap((entry) => (entry.action.type === 'setRate' ? [entry.action.rate] : []));
  t.true(rates.length >= 2);
  for (const rate of rates) {
    t.true(rate === 1.5 || (Math.abs(rate / 1.5 - 1) >= 0.01 - 1e-9 && Math.abs(rate / 1.5 - 1) <= MAX_RATE_DEVIATION + 1e-9), `rate ${rate}`);
  }
  t.true(rates[0]! > 1.5, 'behind: faster than the room');
  t.is(sim.rate, 1.5);
  t.true(sim.settledWithin(history, sim.engine.deadBandMs) !== null);
});

test('a player ahead of the room slows down', (t) => {
  const sim = new Sim({ room: playingRoom(50), mediaTime: 50.2 });
  track(sim, 10);
  const first = sim.log.find((entry) => entry.action.type === 'setRate')!.action as { rate: number };
  t.true(first.rate < 1);
  t.true(Math.abs(sim.lagMs()) < sim.engine.deadBandMs);
});

test('the seek latency is learned from landings: later seeks land closer', (t) => {
  const engine = new SyncEngine();
  const sim = new Sim({ room: playingRoom(100), mediaTime: 10, seekLatencyMs: 600, engine });
  const errors: number[] = [];
  for (let i = 0; i < 4; i++) {
    // Another member seeks the room 60 s ahead: this player is far off and seeks while playing.
    if (i > 0) sim.room = { ...sim.room, position: sim.mediaTime + 60, updatedAt: sim.server };
    const seeks = sim.count('seek');
    let landed: number | null = null;
    sim.run(4, (s) => {
      if (landed === null && s.count('seek') === seeks + 1 && !s.seeking) landed = s.lagMs();
    });
    errors.push(Math.abs(landed!));
  }
  t.true(errors[0]! > 300, `first landing ${errors[0]} ms off`);
  t.true(errors[3]! < 80, `fourth landing ${errors[3]} ms off`);
  t.true(Math.abs(engine.seekLatencyMs - 600) < 80, `learned ${engine.seekLatencyMs} ms`);
});

test('a room change while a seek is in flight is acted on at once', (t) => {
  const sim = new Sim({ room: playingRoom(60), mediaTime: 30, seekLatencyMs: 1000 });
  sim.frame();
  t.is(sim.count('seek'), 1);
  sim.room = { ...sim.room, playing: false, position: 10, updatedAt: sim.server };
  const result = sim.frame()!;
  t.true(result.actions.some((a) => a.type === 'pause'));
  t.true(result.actions.some((a) => a.type === 'seek' && a.position === 10));
});

test('proportional steps: 1 % near the settle band, capped at 5 %; seek threshold beyond what 10 s of the cap closes', (t) => {
  t.is(stepsFor(5), 1);
  t.is(stepsFor(20), 4);
  t.is(stepsFor(-300), 5);
  t.is(SEEK_THRESHOLD_MS, MAX_RATE_DEVIATION * 10_000);
});

test('buffering is reported only after it lasts, ready only after play holds; no chatter', (t) => {
  const sim = new Sim({ room: playingRoom(20), mediaTime: 20 });
  sim.run(0.5);
  t.deepEqual(sim.reports.map((r) => r.report), ['ready'], 'the first ready goes out at once');
  sim.buffering = true;
  const stallAt = sim.server;
  sim.run(0.3);
  t.is(sim.reports.length, 1, 'a 300 ms stall is not reported');
  sim.buffering = false;
  sim.run(0.5);
  sim.buffering = true;
  sim.run(1);
  t.is(sim.reports.length, 2);
  t.is(sim.reports[1]!.report, 'buffering');
  t.true(sim.reports[1]!.server - stallAt >= 800 + 500 - FRAME_MS);
  // Flapping every 400 ms for 4 s: ready never holds for a second, so nothing more is reported.
  for (let i = 0; i < 10; i++) {
    sim.buffering = i % 2 === 1;
    sim.run(0.4);
  }
  t.is(sim.reports.length, 2);
  sim.buffering = false;
  sim.run(1.5);
  t.deepEqual(sim.reports.map((r) => r.report), ['ready', 'buffering', 'ready']);
  t.true(sim.results.every((result) => result.phase !== 'correcting' || !sim.buffering));
});

test('a player without smooth rates (an embedded player) is never given a corrective rate: 300 ms behind, seeks bring it within their threshold', (t) => {
  const engine = new SyncEngine({ smoothRate: false });
  const sim = new Sim({ room: playingRoom(110), mediaTime: 109.7, offsetError: 2, noiseMs: 2, seekLatencyMs: 250, engine });
  const history = track(sim, 15);
  t.is(sim.count('setRate'), 0, 'no rate change at all');
  // The first seek is aimed with the initial latency guess (150 ms, the player takes 250) and
  // lands late; it teaches the latency, and the second lands in time.
  t.true(sim.count('seek') <= 2, `${sim.count('seek')} seeks`);
  t.deepEqual(sim.log.filter((entry) => entry.action.type === 'seek' && entry.server > T0 + 5000), [], 'none once in step');
  const within = sim.settledWithin(history, SEEK_ONLY_THRESHOLD_MS);
  t.true(within !== null && within < 4, `within ${SEEK_ONLY_THRESHOLD_MS} ms after ${within} s`);
});

test('a player without smooth rates leaves a drift under its seek threshold alone (a seek costs it a stall)', (t) => {
  const engine = new SyncEngine({ smoothRate: false });
  const sim = new Sim({ room: playingRoom(110), mediaTime: 110 - 0.06, noiseMs: 2, engine });
  sim.run(10);
  t.is(sim.count('seek'), 0);
  t.is(sim.count('setRate'), 0);
});

test('back from the background: after resume() the first frame far from the room seeks at once; the stale drift window would have held it back', (t) => {
  for (const resumed of [false, true]) {
    const sim = new Sim({ room: playingRoom(100), mediaTime: 100, seekLatencyMs: 200, noiseMs: 1 });
    sim.run(5);
    const before = sim.log.length;
    // The page was frozen and its media stood still for 0.8 s while the room went on.
    sim.mediaTime -= 0.8;
    if (resumed) sim.engine.resume();
    sim.frame();
    const seeks = sim.count('seek', before);
    if (resumed) t.is(seeks, 1, 'a seek on the first frame after resume()');
    else t.is(seeks, 0, 'without resume() the median of the in-step frames before holds the seek back');
  }
});
