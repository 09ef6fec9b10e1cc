/**
 * The playback part: the room's clock and what changes it (play, pause, seek, rate, choosing
 * the current item, the queue at an item's end, folder plays, up-votes), the ready wait, the
 * lazy saves, and the players' reports. It reacts to the others' changes: people coming and
 * going move the ready wait, the playlist losing the current item stops playback (in the same
 * transaction), the first item added is cued, and turning the ready wait off releases a held play.
 */
import type pg from 'pg';
import type { Consequence, PlaylistChange, RoomCore } from '../core.js';
import { roomPart } from '../part.js';
import { loadPlaybackRow, savePlayback, type StoredPlayback } from '../playback-rows.js';
import { startPosition } from '../media-check.js';
import { FOLDER_PLAY, folderPlayFrom, saveFolderPlay } from './folder-play.js';
import { playPlaylistFolder } from './folder-play-handlers.js';
import { MEDIA_LENGTH } from './media-length.js';
import { VERSION_BLOCK, extrapolate } from './playback.js';
import { next, pause, play, previous, seek, setCurrentMedia, setRate } from './playback-handlers.js';
import { PLAYBACK_WRITER } from './playback-writer.js';
import { reportPlayer } from './player-handlers.js';
import { ended } from './queue-handlers.js';
import { voteForItem } from './queue-vote-handlers.js';
import { QUEUE_VOTES, anonymiseQueueVotes, loadQueueVotes } from './queue-votes.js';
import { onReadyTimeout, reconsiderReadiness, releaseHeldPlay } from './ready-wait.js';
import { PLAYBACK, type PlaybackPlan } from './room-playback.js';

/**
 * Reads the stored playback, carried forward to now, and reserves this activation's block of
 * versions in the load transaction. A playing item removed just before a crash may be gone while
 * playback still names it: then nothing is current.
 */
async function load(core: RoomCore, client: pg.PoolClient): Promise<void> {
  const row = await loadPlaybackRow(client, core.id);
  const stored = row?.playback ?? { mediaId: null, playing: false, position: 0, rate: 1, updatedAt: core.current.createdAt, version: 0, versionReserved: 0 };
  const start: StoredPlayback = {
    ...extrapolate(stored, core.now()),
    version: stored.versionReserved,
    versionReserved: stored.versionReserved + VERSION_BLOCK,
  };
  if (start.mediaId !== null && !core.playlist.some((e) => e.item.id === start.mediaId)) {
    Object.assign(start, { mediaId: null, playing: false, position: 0 });
  }
  await savePlayback(client, core.id, start);
  PLAYBACK.of(core).restore(start);
  FOLDER_PLAY.of(core).state = folderPlayFrom(row?.folderPlay);
  QUEUE_VOTES.of(core).restore(await loadQueueVotes(client, core.id));
}

/**
 * What a playlist change does to playback, written in the change's transaction: the room never
 * plays media that is gone, nor loses media while still playing it; a folder play ends with its
 * folder; the first item added to a room with nothing current is cued paused at its start, so
 * the player shows it at once and one press of play starts it for everyone
 * (docs/2026-11-26-queue-modes.md says why it does not start by itself).
 */
function playlistChanging(core: RoomCore, change: PlaylistChange, by: string): Consequence | undefined {
  const play = PLAYBACK.of(core);
  const folderPlay = FOLDER_PLAY.of(core);
  const current = core.playback.mediaId;
  let plan: PlaybackPlan | undefined;
  let endFolderPlay = false;
  if (change.op === 'added') {
    if (current !== null) return undefined;
    const item = change.item;
    plan = play.plan({
      patch: { mediaId: item.id, playing: false, position: startPosition(core.deps.media, item), updatedAt: core.now() },
      cause: 'playlist.setCurrent',
      by,
      wait: 'close',
      resetStragglers: true,
    });
  } else {
    const gone = change.op === 'cleared' ? current !== null : current !== null && change.mediaIds.includes(current);
    if (gone) {
      const cause = change.op === 'cleared' ? 'playlist.clear' : 'playlist.remove';
      plan = play.plan({ patch: { mediaId: null, playing: false, position: 0, updatedAt: core.now() }, cause, by, wait: 'close', resetStragglers: true });
    }
    endFolderPlay = folderPlay.state !== null && (change.op === 'cleared' || folderPlay.state.folderId === change.folderId);
  }
  if (!plan && !endFolderPlay) return undefined;
  return {
    write: async (client) => {
      if (endFolderPlay) await saveFolderPlay(client, core.id, null);
      if (plan) await savePlayback(client, core.id, play.stored(plan));
    },
    apply: () => {
      if (endFolderPlay) folderPlay.state = null;
      if (plan) play.apply(plan, true);
    },
  };
}

export const playbackPart = roomPart({
  name: 'playback',
  state: [PLAYBACK, MEDIA_LENGTH, QUEUE_VOTES, FOLDER_PLAY],
  shared: [PLAYBACK_WRITER],
  handlers: {
    'playback.play': play,
    'playback.pause': pause,
    'playback.seek': seek,
    'playback.rate': setRate,
    'playback.next': next,
    'playback.previous': previous,
    'playback.ended': ended,
    'playlist.setCurrent': setCurrentMedia,
    'playlist.folder.play': playPlaylistFolder,
    'playlist.vote': voteForItem,
    'member.player': reportPlayer,
  },
  timers: {
    persist: (core) => PLAYBACK.of(core).onPersistTimer(),
    ready: onReadyTimeout,
  },
  load,
  creating: (core) => {
    // Versions continue this activation's, so an expectVersion from a deleted room never matches.
    const initial = PLAYBACK.of(core).initial();
    return {
      write: (client) => savePlayback(client, core.id, initial),
      apply: () => {
        PLAYBACK.of(core).restore(initial);
        FOLDER_PLAY.of(core).state = null;
        QUEUE_VOTES.of(core).clear();
      },
    };
  },
  deleted: (core) => {
    PLAYBACK.of(core).reset();
    FOLDER_PLAY.of(core).state = null;
    QUEUE_VOTES.of(core).clear();
  },
  // A fenced activation writes nothing; otherwise what is only in memory is saved, also when the
  // host lost its lease (one try, its signal already aborted): the fence lets the save land only
  // while no newer activation has claimed the room, and nobody else would ever write it.
  deactivating: (core, reason, signal) => (reason === 'fenced' ? undefined : PLAYBACK.of(core).flush(signal)),
  view: (core, access) => ({
    playback: PLAYBACK.of(core).view(),
    ...(access.permissions.has('view_media_resources') && core.current.options.queueMode === 'vote' ? { queueVotes: QUEUE_VOTES.of(core).views(core.playlist) } : {}),
  }),
  presenceChanged: async (core, userId, change) => {
    if (change === 'connection') return;
    // Someone gone is no longer waited for; a newcomer has not loaded the current media, so a held play waits for them too.
    if (change === 'offline') PLAYBACK.of(core).leftBehind.delete(userId);
    await reconsiderReadiness(core, null);
  },
  memberRemoved: async (core, userId, { wasOnline }) => {
    PLAYBACK.of(core).leftBehind.delete(userId);
    if (wasOnline) await reconsiderReadiness(core, null);
  },
  roomChanged: async (core, _before, by) => {
    // Turning the ready wait off releases a play it was holding.
    if (!core.current.options.waitForAllReady && PLAYBACK.of(core).holding) await releaseHeldPlay(core, by);
  },
  playlistChanging,
  forgetting: async (core, client, userId) => {
    const votes = await anonymiseQueueVotes(client, core.id, userId);
    return {
      counts: { queueVotes: votes.length },
      apply: () => {
        // Up-votes keep counting, each under its new id.
        const book = QUEUE_VOTES.of(core);
        const items = new Set<string>();
        for (const { mediaId, voterId } of votes) {
          book.set(mediaId, userId, false);
          book.set(mediaId, voterId, true);
          items.add(mediaId);
        }
        for (const mediaId of items) core.publish({ type: 'queue.votes', queueVotes: book.view(mediaId) });
      },
    };
  },
});
