/**
 * `playlist.playable`: may the caller play this item, and what is it? The play endpoint and the
 * media proxy ask it before handing out or honouring a media link. What is playing is every
 * member's to watch, guests included; any other item of the list needs
 * `view_media_resources` (docs/2026-11-26-guests-watch.md).
 */
import { AppError } from '../../../errors/index.js';
import type { RoomCommandOf } from '../../../contracts/room/commands.js';
import type { RoomCore, Turn } from '../core.js';
import type { RoomResults } from '../../../contracts/room/results.js';

export function playableMedia(core: RoomCore, command: RoomCommandOf<'playlist.playable'>, turn: Turn): Promise<RoomResults['playlist.playable']> {
  const current = command.mediaId === core.playback.mediaId;
  // Checked before looking the item up, so a member who may not see the list cannot learn
  // which ids it holds from the difference between "not found" and "forbidden".
  if (!current) core.require(turn.access, 'view_media_resources', 'playing an item other than the one playing now');
  const item = core.playlist.find((e) => e.item.id === command.mediaId)?.item;
  if (!item) throw new AppError('not_found', `media ${command.mediaId} is not in this room's playlist`);
  return Promise.resolve({ item, current });
}
