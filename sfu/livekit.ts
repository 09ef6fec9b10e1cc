/**
 * LiveKit's server SDK, loaded when the first call needs it rather than when a gateway starts:
 * with its protocol's generated messages it is about 70 modules and 100 ms of a gateway's start
 * (2026-12-01), and a gateway whose rooms open no call never needs it.
 */
type LiveKit = typeof import('livekit-server-sdk');

let loading: Promise<LiveKit> | undefined;

export function livekit(): Promise<LiveKit> {
  return (loading ??= import('livekit-server-sdk'));
}
