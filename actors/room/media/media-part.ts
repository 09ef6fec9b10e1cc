/**
 * The media part: the shared playlist (items and folders, held by the core and loaded here),
 * its commands, the items in views for those who may see them, and the seek and reach checks
 * of added and edited items, which run outside the turns and come back as internal commands.
 */
import { itemSeenBy } from '../../../contracts/room/item-headers.js';
import { roomPart } from '../part.js';
import { addFolder, movePlaylistFolder, removePlaylistFolder, renamePlaylistFolder } from './folder-handlers.js';
import { playableMedia } from './playable-handlers.js';
import { clearMedia, editMedia, insertMediaAt, moveMedia, pushMedia, removeMedia } from './playlist-handlers.js';
import { folderViews } from './playlist-state.js';
import { loadPlaylist } from './playlist-store.js';
import { REACH_CHECKS, REACH_RESULT_KIND, abortReachChecks, reachChecksRunning, recordReach } from './reach-check.js';
import { SEEK_CHECKS, SEEK_RESULT_KIND, abortSeekChecks, recordSeekable, resumeSeekChecks, seekChecksRunning } from './seek-check.js';

export const mediaPart = roomPart({
  name: 'media',
  state: [SEEK_CHECKS, REACH_CHECKS],
  handlers: {
    'playlist.push': pushMedia,
    'playlist.insert': insertMediaAt,
    'playlist.move': moveMedia,
    'playlist.remove': removeMedia,
    'playlist.clear': clearMedia,
    'playlist.edit': editMedia,
    'playlist.folder.add': addFolder,
    'playlist.folder.rename': renamePlaylistFolder,
    'playlist.folder.move': movePlaylistFolder,
    'playlist.folder.remove': removePlaylistFolder,
    'playlist.playable': playableMedia,
  },
  internal: { [SEEK_RESULT_KIND]: recordSeekable, [REACH_RESULT_KIND]: recordReach },
  load: async (core, client) => {
    const { playlist, folders } = await loadPlaylist(client, core.id);
    core.playlist = playlist;
    core.folders = folders;
  },
  // A new activation probes again what a crash (or a passivation) left `checking`.
  activated: resumeSeekChecks,
  deactivating: (core) => {
    abortSeekChecks(core);
    abortReachChecks(core);
  },
  // A probe in flight keeps the activation, so its answer has somewhere to land.
  busy: (core) => seekChecksRunning(core) + reachChecksRunning(core) > 0,
  view: (core, access) =>
    access.permissions.has('view_media_resources') ? { playlist: core.playlist.map((e) => itemSeenBy(e.item, access)), playlistFolders: folderViews(core) } : {},
});
