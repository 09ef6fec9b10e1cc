/**
 * Every number the sync engine decides with, and why. Drift is measured in wall-clock ms (how
 * long ago the room showed what this player shows now; positive = behind), so the same
 * thresholds hold at any room rate. Summary and sources: docs/2026-11-23-sync-engine.md.
 */

/**
 * No correction inside the dead band. What a screen shows moves in whole frames: the drift
 * measured from the frame on screen takes values a frame apart, and a rate change moves it
 * only when the renderer drops or repeats a frame (Chromium keeps its cadence meanwhile, so a
 * 30 fps video on a 60 Hz screen jumps 33 ms at a time). A band under half a frame therefore
 * hunts between the two frames around the target for ever (bench:sync: 8 ms with 30 fps
 * video corrected all the time); one just over half a frame holds exactly one or two of them,
 * and with 60 fps video players on one display clock show the same frame at the same refresh.
 * So the band is DEAD_BAND_FRAME_SHARE of the frame interval seen on screen (wall ms between
 * successive frames' media times, a median), within [DEAD_BAND_MS, DEAD_BAND_MAX_MS]:
 *  - 8 ms at 60 fps and when frames are not known (the fallback without
 *    requestVideoFrameCallback): half a 60 Hz refresh;
 *  - 18 ms at 30 fps; 23 ms at 24 fps;
 *  - at most 25 ms, so slideshow-like sources still sync well inside lip-sync tolerance (~45 ms
 *    audio-late, ITU-R BT.1359).
 */
export const DEAD_BAND_MS = 8;
export const DEAD_BAND_FRAME_SHARE = 0.55;
export const DEAD_BAND_MAX_MS = 25;

/**
 * A rate correction runs until the drift is back inside this band (or crossed zero), then the
 * room rate returns. Smaller than the dead band: the hysteresis keeps noise around the band's
 * edge from toggling the rate on and off. Once the frame interval is known the band is half a
 * frame instead (never more than the dead band): the drift on screen moves a frame at a time,
 * and a correction told to get nearer than the nearest frame crossed to the frame on the other
 * side, which was outside the dead band again: a correction every second or two (bench:sync).
 */
export const SETTLE_BAND_MS = 3;

/**
 * At most ±5 % off the room rate: with pitch preservation (Chromium, Firefox, Safari) this is
 * not audible on speech or music; beyond ~8 % listeners notice the tempo.
 */
export const MAX_RATE_DEVIATION = 0.05;

/**
 * The corrective rate moves in whole 1 % steps, never closer to the room rate than 1 %:
 * Chromium ignores rate changes within ~0.1 % of the current rate, and steps keep the number
 * of `setRate` calls per correction at a handful instead of one per frame.
 */
export const RATE_STEP = 0.01;

/**
 * Proportional gain: deviation = drift / 600 ms (so 30 ms of drift or more runs at the 5 %
 * cap; 5 ms at 1 %). The drift then decays with a ~0.6 s time constant once under 30 ms, so
 * the tail of a correction takes about a second.
 */
export const RATE_GAIN_MS = 600;

/**
 * Seek instead of adjusting the rate beyond this drift. At the 5 % cap, 500 ms takes 10 s to
 * close; past that a seek's short stall is the lesser evil. Peers seek at 1-2 s (SyncTV,
 * OpenTogetherTube, CyTube) because they have nothing finer.
 */
export const SEEK_THRESHOLD_MS = 500;

/**
 * A player whose rate cannot move in small steps (an embedded player with a few fixed rates,
 * such as YouTube's 0.25 steps) is corrected by seeking alone, once the drift passes this:
 * well inside the 150 ms an embedded player is held to, and above the noise of a clock that
 * such a player reports a few times a second. Its seeks are allowed more often than a
 * `<video>`'s, since they are its only correction.
 */
export const SEEK_ONLY_THRESHOLD_MS = 90;
export const SEEK_ONLY_COOLDOWN_MS = 1500;

/**
 * A paused (or waiting-to-start) player is moved when it is further than this from the
 * room's position: just over one frame at 25-30 fps (33-40 ms), so a paused frame that is
 * visibly different is fixed and a sub-frame difference is left alone.
 */
export const PAUSED_TOLERANCE_MS = 40;

/**
 * First guess of how long a seek takes to show a frame (local file or a warm cache: ~100-300
 * ms in Chromium). The engine seeks this far ahead and learns the real figure from each
 * landing (`LATENCY_LEARNING_RATE`), clamped to [0, SEEK_LATENCY_MAX_MS].
 */
export const SEEK_LATENCY_INITIAL_MS = 150;
export const SEEK_LATENCY_MAX_MS = 3000;
/**
 * A seek into media the element has buffered (BUFFERED_AHEAD_S from the target on) only
 * decodes from the keyframe before it: bench:sync saw 17-23 ms, against 100-700 ms for a
 * seek that fetches. Its latency is learned apart, from this first guess: a late joiner's
 * second seek (its first landed late, and buffered on from there) waits tens of ms, not the
 * hundreds a fetch would have needed.
 */
export const BUFFERED_SEEK_LATENCY_INITIAL_MS = 50;
export const BUFFERED_AHEAD_S = 0.5;
/** Half of each landing's error goes into the seek and start-up latency estimates: converges in a few, robust to one odd one. */
export const LATENCY_LEARNING_RATE = 0.5;

/**
 * A seek that has not landed after this long is given up on (the player never cleared
 * `seeking`, or never showed a frame): corrections resume rather than stall forever.
 */
export const SEEK_TIMEOUT_MS = 10_000;

/**
 * At most one engine seek per this interval: a source whose seeks land far from the target
 * (keyframe snapping, a misbehaving stream) gets rate corrections instead of a seek loop.
 */
export const SEEK_COOLDOWN_MS = 3000;

/**
 * The drift of one frame is noisy (clock estimate steps, `currentTime` fallback without
 * requestVideoFrameCallback, 3:2 cadence of 24 fps video on a 60 Hz screen). Decisions use
 * the median of the last 15 measurements (0.25-0.6 s of frames): outliers change nothing,
 * and with a dead band of half a refresh, a shorter window let 4 ms of noise start a
 * correction every few seconds.
 */
export const DRIFT_MEDIAN_WINDOW = 15;
/** Frame intervals kept for the dead band's median (a dropped frame's double step changes nothing). */
export const FRAME_STEP_WINDOW = 15;

/**
 * A rate correction starts only once this many measurements back the median (a fresh
 * window after a seek, a room change or a start) and the frame interval (the dead band):
 * one noisy frame is not a drift. Seeks, far beyond noise, do not wait.
 */
export const DRIFT_MIN_SAMPLES = 5;

/**
 * `play`/`pause` are re-issued at most this often while the player does not follow (autoplay
 * blocked, a slow element): once per second is enough and does not flood the element.
 */
export const ACTION_RETRY_MS = 1000;

/**
 * A scheduled start is re-announced when the mapped local instant moves by more than this
 * (the clock estimate improved during the lead).
 */
export const SCHEDULE_RESEND_MS = 5;

/**
 * Readiness reports: a stall must last this long before the room hears `buffering` (with
 * waitForAllReady one report pauses everybody, so hiccups and the engine's own short seeks
 * must not); and play must run this long before `ready` follows, so a stream that stalls
 * every few hundred ms does not make the room chatter.
 */
export const BUFFERING_REPORT_AFTER_MS = 500;
export const READY_REPORT_AFTER_MS = 1000;

/**
 * A paused player in a playing room waits this long for its first clock sample before it
 * plays uncorrected: the first ping answers within a round trip, and starting without it
 * means starting at the wrong place and seeking again a moment later.
 */
export const NO_CLOCK_WAIT_MS = 2000;

/** Clock: samples kept; the estimate is the offset of the one with the smallest round trip. */
export const CLOCK_WINDOW = 8;
/** Clock: a fresh connection pings in a burst until it has this many samples… */
export const CLOCK_BURST_SAMPLES = 5;
/** …one every 150 ms (the whole burst well under a second, without stacking pings in one RTT). */
export const CLOCK_BURST_INTERVAL_MS = 150;
/**
 * Clock: then one ping every 10-15 s, jittered so clients that joined together do not ping
 * together. Quartz clocks drift ≤ ~50 ppm: 0.75 ms per 15 s, far below the dead band.
 */
export const CLOCK_STEADY_MIN_MS = 10_000;
export const CLOCK_STEADY_MAX_MS = 15_000;
/**
 * Clock: a sample with a round trip above this says little (its offset is uncertain by half
 * the rtt) and is dropped once any estimate exists.
 */
export const CLOCK_MAX_RTT_MS = 2000;

/**
 * Chromium shows the first frame at play() but its media clock only runs once the audio
 * output has started: a player started at an instant falls 60-110 ms behind in its first
 * frames (bench:sync; issue 26 measured 64-112 ms, median 97, from play() to the clock
 * running, over 19 late joiners). Scheduled starts call play() this much early; the figure is
 * learned from each start (half of the lag of its first full drift window) and kept per
 * device, so only a device's first start uses this guess. Above the maximum, a lag is a
 * stall, not start-up.
 */
export const START_LATENCY_INITIAL_MS = 90;
export const START_LATENCY_MAX_MS = 300;

/**
 * A start less than this ahead counts as started: a host timer or a frame callback that fires
 * a few ms early must not be paused again for the remaining fraction of a frame.
 */
export const START_GRACE_MS = 20;

/**
 * A player that has shown no frame for this long (and has not just started) is measured by
 * `currentTime` instead: a hidden tab renders no frames but still plays its sound, which
 * must stay in step. Otherwise `currentTime`, ahead of the screen, only fills gaps and
 * measures nothing.
 */
export const FRAMELESS_MS = 1000;

/** A seek has landed when its frame is within this of the target (plus the time played since). */
export const SEEK_LANDING_TOLERANCE_S = 1;

/**
 * A paused player far from a playing room (a late joiner, after a stall) seeks while paused
 * to where the room will be this long after the seek is expected to land and play() has had
 * its start-up latency, then starts at the instant the room reaches that frame: exact
 * whatever the decoder's start-up time, as long as the latency estimate is not short by more
 * than this. Costs this much extra waiting once. A seek that lands late anyway (a slow fetch)
 * is followed by a second one, into media now buffered (tens of ms).
 */
export const JOIN_SEEK_MARGIN_MS = 200;

/**
 * A paused player that would run at most this far behind a playing room if it played now
 * (its lag plus the start-up latency: a seek that landed a little late, a play that reached
 * it late, a start timer that fired late on a busy page) plays at once, and the rate closes
 * the rest within a second. Later than that, it seeks ahead again: the rate closes 50 ms a
 * second (bench:sync: late joiners started 75-120 ms behind took 2-4 s to come within 50 ms).
 */
export const LATE_START_MS = 40;

/**
 * Join seeks (a paused player seeking ahead of a playing room) per room state: the latency each
 * one teaches makes the next land in time, so a second one almost never misses; past this
 * many, the source's seeks are too erratic to aim and the player plays and corrects by rate.
 */
export const JOIN_SEEKS_MAX = 3;
