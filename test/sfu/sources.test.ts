/**
 * The call's track sources: the wire numbers sfu/sources.ts writes out (so that a gateway loads
 * LiveKit's SDK only when a call needs it) are the SDK's own, and every source maps there and back.
 */
import test from 'ava';
import { TrackSource } from 'livekit-server-sdk';
import type { CallSource } from '../../contracts/room/model.js';
import { callSourceOf, TRACK_SOURCE, trackSourceOf } from '../../sfu/sources.js';

test("the track sources' numbers are LiveKit's, and each source maps there and back", (t) => {
  t.deepEqual(TRACK_SOURCE, {
    CAMERA: TrackSource.CAMERA,
    MICROPHONE: TrackSource.MICROPHONE,
    SCREEN_SHARE: TrackSource.SCREEN_SHARE,
    SCREEN_SHARE_AUDIO: TrackSource.SCREEN_SHARE_AUDIO,
  });
  const sources: CallSource[] = ['microphone', 'camera', 'screen_share', 'screen_share_audio'];
  for (const source of sources) t.is(callSourceOf(trackSourceOf(source)), source);
  t.is(callSourceOf(TrackSource.UNKNOWN), undefined);
});
