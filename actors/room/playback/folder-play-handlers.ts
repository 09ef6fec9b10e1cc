/**
 * `playlist.folder.play` (docs/2026-11-26-playlist-folders.md): the queue plays a folder of the
 * playlist, in its order or shuffled, then goes on by the room's queue mode.
 */
import { AppError } from '../../../errors/index.js';
import type { RoomCommandOf } from '../../../contracts/room/commands.js';
import type { RoomResults } from '../../../contracts/room/results.js';
import type { RoomCore, Turn } from '../core.js';
import { FOLDER_PLAY, folderItemIds, saveFolderPlay } from './folder-play.js';
import { switchTo } from './playback-handlers.js';
import { QUEUE_START_LEAD_MS } from './queue.js';
import { startFolderPlay } from './queue-folder.js';
import { PLAYBACK } from './room-playback.js';

/**
 * Plays a folder: its first item (or a random one) starts for everyone, and the queue goes on
 * within the folder (queue-folder.ts). The state is stored before the switch, naming
 * the item it puts on: should the switch not happen, the state names an item that is not
 * current and is ignored.
 */
export async function playPlaylistFolder(core: RoomCore, command: RoomCommandOf<'playlist.folder.play'>, turn: Turn): Promise<RoomResults['playlist.folder.play']> {
  core.require(turn.access, 'set_current_media', 'choosing what plays');
  const folder = core.folders.find((f) => f.folder.id === command.folderId)?.folder;
  if (!folder) throw new AppError('not_found', `folder ${command.folderId} is not in this room's playlist`);
  const ids = folderItemIds(core, folder.id);
  if (ids.length === 0) throw new AppError('conflict', `folder ${folder.id} holds no items to play`);
  const state = startFolderPlay(folder.id, command.order, ids);
  const first = core.playlist.find((e) => e.item.id === state.current)!.item;
  await core.durable('start a folder play', (client) => saveFolderPlay(client, core.id, state));
  FOLDER_PLAY.of(core).state = state;
  // Like the queue going on: everyone loads the item and it starts together shortly.
  const playing = core.playback.playing || PLAYBACK.of(core).holding;
  const playback = await switchTo(core, first, 'playlist.setCurrent', turn, playing ? turn.now + QUEUE_START_LEAD_MS : undefined);
  return { playback };
}
