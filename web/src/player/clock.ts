/**
 * The one local clock of the player: `performance.timeOrigin + performance.now()`, the clock
 * requestVideoFrameCallback times frames with. Clock pings are taken with it too, so the
 * estimated offset (server minus local) applies to frame instants as is; Date.now() may be
 * stepped by NTP and would differ from it.
 */
export const localNow = (): number => performance.timeOrigin + performance.now();
