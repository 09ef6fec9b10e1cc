/**
 * The livestream part (docs/2026-11-23-livestreams.md): which live items are on air (in memory,
 * re-announced by the RTMP ingest), who may publish, the sweep that takes silent streams off
 * air, and forgetting items that leave the playlist (their stream keys go with their rows).
 */
import type { RoomCore } from '../core.js';
import { roomPart } from '../part.js';
import { authorizePublisher, setLiveStatus } from './live-handlers.js';
import { LIVE } from './live-status.js';
import { ensureLiveSweep, onLiveTimer } from './live-sweep.js';

/** The live items on air that a member without view_media_resources may know of: the current one. */
function currentOnAir(core: RoomCore): string[] {
  return LIVE.of(core).online().filter((id) => id === core.playback.mediaId);
}

export const livePart = roomPart({
  name: 'live',
  state: [LIVE],
  handlers: {
    'live.authorize': authorizePublisher,
    'live.status': setLiveStatus,
  },
  timers: { live: onLiveTimer },
  view: (core, access) => ({ liveOnline: access.permissions.has('view_media_resources') ? LIVE.of(core).online() : currentOnAir(core) }),
  playlistChanging: (core, change) => {
    if (change.op === 'added' || (change.op === 'removed' && change.mediaIds.length === 0)) return undefined;
    return {
      apply: () => {
        const live = LIVE.of(core);
        if (change.op === 'cleared') live.clear();
        else for (const mediaId of change.mediaIds) live.forget(mediaId);
        ensureLiveSweep(core);
      },
    };
  },
  deleted: (core) => LIVE.of(core).clear(),
});
