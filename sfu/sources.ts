/**
 * The call's track sources as the contracts name them and as LiveKit's protocol numbers them
 * (livekit_models.proto's TrackSource: wire numbers, which never change; written out here so
 * that this map does not load the SDK, livekit.ts; the unit test compares them with its enum).
 */
import type { TrackSource } from 'livekit-server-sdk';
import type { CallSource } from '../contracts/room/model.js';

export const TRACK_SOURCE = { CAMERA: 1, MICROPHONE: 2, SCREEN_SHARE: 3, SCREEN_SHARE_AUDIO: 4 } as const satisfies Record<string, TrackSource>;

const TO_TRACK: Record<CallSource, TrackSource> = {
  microphone: TRACK_SOURCE.MICROPHONE,
  camera: TRACK_SOURCE.CAMERA,
  screen_share: TRACK_SOURCE.SCREEN_SHARE,
  screen_share_audio: TRACK_SOURCE.SCREEN_SHARE_AUDIO,
};

/** What a share adds to what its sharer may publish, and a stopped share takes away. */
export const SHARE_SOURCES: readonly CallSource[] = ['screen_share', 'screen_share_audio'];

export function trackSourceOf(source: CallSource): TrackSource {
  return TO_TRACK[source];
}

export function callSourceOf(track: TrackSource): CallSource | undefined {
  return (Object.keys(TO_TRACK) as CallSource[]).find((source) => TO_TRACK[source] === track);
}
