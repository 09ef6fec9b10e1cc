/** The call's track sources as the contracts name them and as LiveKit's protocol numbers them. */
import { TrackSource } from 'livekit-server-sdk';
import type { CallSource } from '../contracts/room/model.js';

const TO_TRACK: Record<CallSource, TrackSource> = {
  microphone: TrackSource.MICROPHONE,
  camera: TrackSource.CAMERA,
  screen_share: TrackSource.SCREEN_SHARE,
  screen_share_audio: TrackSource.SCREEN_SHARE_AUDIO,
};

/** What a share adds to what its sharer may publish, and a stopped share takes away. */
export const SHARE_SOURCES: readonly CallSource[] = ['screen_share', 'screen_share_audio'];

export function trackSourceOf(source: CallSource): TrackSource {
  return TO_TRACK[source];
}

export function callSourceOf(track: TrackSource): CallSource | undefined {
  return (Object.keys(TO_TRACK) as CallSource[]).find((source) => TO_TRACK[source] === track);
}
