/**
 * Livestreams (docs/2026-11-23-livestreams.md): who may publish to a live item, and its
 * on-air status as the RTMP ingest reports it. Stream keys themselves are not room state:
 * the gateway keeps them (media/live/stream-keys.ts) once the room has said yes here.
 */
import { AppError } from '../../../errors/index.js';
import type { RoomCommandOf } from '../../../contracts/room/commands.js';
import type { RoomCore, Turn } from '../core.js';
import type { MediaItem } from '../../../contracts/room/model.js';
import type { RoomResults } from '../../../contracts/room/results.js';
import { LIVE } from './live-status.js';
import { ensureLiveSweep } from './live-sweep.js';

/** Providers whose streams this server serves and reports on air: published (`live`) and pulled (`pull`). */
const SERVED_LIVE = new Set(['live', 'pull']);

function playlistItem(core: RoomCore, mediaId: string): MediaItem {
  const item = core.playlist.find((e) => e.item.id === mediaId)?.item;
  if (!item) throw new AppError('not_found', `media ${mediaId} is not in this room's playlist`);
  return item;
}

function liveItem(core: RoomCore, mediaId: string): MediaItem {
  const item = playlistItem(core, mediaId);
  if (item.provider !== 'live') {
    throw new AppError('invalid_argument', `media ${mediaId} is not a live item (provider "${item.provider}"); only live items have a stream key`);
  }
  return item;
}

export function authorizePublisher(core: RoomCore, command: RoomCommandOf<'live.authorize'>, turn: Turn): Promise<RoomResults['live.authorize']> {
  core.require(turn.access, 'publish_livestream', 'publishing a livestream');
  const item = liveItem(core, command.mediaId);
  return Promise.resolve({ item, online: LIVE.of(core).online().includes(item.id) });
}

/**
 * Repeated announcements are the ingest's (or the puller's) heartbeat: they refresh the item's time to live
 * without an event. An item that left the playlist meanwhile is refused, which tells the
 * ingest to end that publish.
 */
export function setLiveStatus(core: RoomCore, command: RoomCommandOf<'live.status'>, turn: Turn): Promise<RoomResults['live.status']> {
  if (!turn.access.service) throw new AppError('forbidden', 'live status is reported by the RTMP ingest or the stream puller (a service caller)');
  if (command.online) {
    const item = playlistItem(core, command.mediaId);
    if (!SERVED_LIVE.has(item.provider)) {
      throw new AppError('invalid_argument', `media ${command.mediaId} is not a livestream this server serves (provider "${item.provider}")`);
    }
  }
  const changed = LIVE.of(core).announce(command.mediaId, command.online, turn.now);
  if (changed) core.publish({ type: 'live', mediaId: command.mediaId, online: command.online });
  ensureLiveSweep(core);
  return Promise.resolve({ online: command.online, changed });
}
