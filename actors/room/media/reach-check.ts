/**
 * How an item's media reaches browsers (contracts/room/reach.ts), known before anyone presses
 * Play: when an item is added or its source edited, the service's probe (the transcoder pool's
 * ffprobe, through the seam ../seek-probe.ts) runs outside the turn, like the seek check beside
 * it (seek-check.ts), and its answer comes back as a command the activation schedules to itself,
 * which records it and publishes the edited item. The two checks are separate because they
 * answer at different speeds: the seek check is one Range request, this one reads the media's
 * index, and seeking must not wait for it.
 *
 * Unlike the seek check, a reach check is not resumed by a new activation: `null` means "not
 * known", which is also what a source that is not a file (HLS, YouTube) or a pool without
 * transcoders answers, and probing every such item at every activation would cost an ffprobe
 * each time. An item whose check was lost to a crash plays as it is until its source is edited.
 */
import { isFencedError } from '../../runtime/fencing.js';
import { messageOf } from '../../runtime/nats-errors.js';
import { StateSlice, type RoomCore } from '../core.js';
import type { MediaItem } from '../../../contracts/room/model.js';
import type { MediaReach } from '../../../contracts/room/reach.js';
import { setMediaReach } from './playlist-store.js';

/** The command a finished reach probe delivers to its activation (accepted only as a scheduled command). */
export const REACH_RESULT_KIND = 'room.reach';

interface ReachResult {
  kind: typeof REACH_RESULT_KIND;
  mediaId: string;
  /** The URL probed: an edit since then makes the answer stale. */
  url: string;
  reach: MediaReach;
}

/** Reach probes in flight per activation, by media id: they keep the activation from passivating. */
export const REACH_CHECKS = new StateSlice('reach checks', () => new Map<string, AbortController>());

/** Starts the reach probe of an added or re-pointed item (after its write committed). */
export function startReachCheck(core: RoomCore, item: MediaItem): void {
  const probe = core.deps.seekProbe;
  if (!probe?.reach || item.live) return;
  const probes = REACH_CHECKS.of(core);
  probes.get(item.id)?.abort();
  const controller = new AbortController();
  probes.set(item.id, controller);
  const finish = (reach: MediaReach | null): void => {
    if (probes.get(item.id) === controller) probes.delete(item.id);
    if (controller.signal.aborted || reach === null) return;
    const result: ReachResult = { kind: REACH_RESULT_KIND, mediaId: item.id, url: item.url, reach };
    core.ctx.schedule(0, result);
  };
  probe.reach(item, controller.signal, core.id).then(finish, () => finish(null));
}

export function reachChecksRunning(core: RoomCore): number {
  return REACH_CHECKS.of(core).size;
}

export function abortReachChecks(core: RoomCore): void {
  const probes = REACH_CHECKS.of(core);
  for (const controller of probes.values()) controller.abort();
  probes.clear();
}

/** Records a probe's answer, unless the item has gone or changed since it was asked (an internal command). */
export async function recordReach(core: RoomCore, raw: unknown): Promise<{ recorded: boolean }> {
  const result = raw as ReachResult;
  const index = core.playlist.findIndex((e) => e.item.id === result.mediaId);
  const entry = core.playlist[index];
  if (!entry || entry.item.url !== result.url) return { recorded: false };
  try {
    await core.durable('record how media reaches browsers', (client) => setMediaReach(client, core.id, result.mediaId, result.reach));
  } catch (err) {
    if (isFencedError(err)) throw err;
    // It stays unknown: the item plays as it is.
    core.logger.warn({ err: messageOf(err), mediaId: result.mediaId }, 'could not record how media reaches browsers');
    return { recorded: false };
  }
  const item: MediaItem = { ...entry.item, reach: result.reach };
  core.playlist = core.playlist.map((e, i) => (i === index ? { item, sortKey: e.sortKey } : e));
  core.publish({ type: 'playlist', op: 'edited', item });
  core.publish({ type: 'media.checked', mediaId: item.id, seekable: item.seekable, reachHow: result.reach.how });
  return { recorded: true };
}
