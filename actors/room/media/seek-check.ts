/**
 * Whether an item's source can seek, known before anyone presses play
 * (docs/2026-11-26-seekable-sources.md). A source whose server ignores Range (`python3 -m
 * http.server`) sends every read from the start: a player told to jump restarts at 0:00, so
 * the room must not jump in it. The actor does no network I/O in its turns: the service
 * injects a `SeekProbe` (media/seek-probe.ts, through the seam ../seek-probe.ts). An add or URL
 * edit stores the item as `checking`; the probe runs outside the turn and its answer comes back
 * as a command the activation schedules to itself, which records it and publishes the edited
 * item. Items the provider decides by nature (HLS: yes, live: no) are settled in the turn, with
 * no probe. What playback may do in media that cannot seek is playback/seek-rules.ts.
 */
import { isFencedError } from '../../runtime/fencing.js';
import { messageOf } from '../../runtime/nats-errors.js';
import { StateSlice, type RoomCore } from '../core.js';
import type { MediaItem, Seekable } from '../../../contracts/room/model.js';
import { setMediaSeekable } from './playlist-store.js';
import type { ProbedSeekable } from '../seek-probe.js';

/** The command a finished probe delivers to its activation (accepted only as a scheduled command). */
export const SEEK_RESULT_KIND = 'room.seekable';

interface SeekResult {
  kind: typeof SEEK_RESULT_KIND;
  mediaId: string;
  /** The URL probed: an edit since then makes the answer stale. */
  url: string;
  seekable: ProbedSeekable;
}

/** Probes in flight per activation, by media id: they keep the activation from passivating. */
export const SEEK_CHECKS = new StateSlice('seek checks', () => new Map<string, AbortController>());

/** The `seekable` an added or re-pointed item starts with. */
export function initialSeekable(core: RoomCore, item: Pick<MediaItem, 'provider' | 'url' | 'live'>): Seekable {
  if (item.live) return 'no';
  return core.deps.seekProbe?.initial(item) ?? 'unknown';
}

/** Starts the probe of an item stored as `checking` (after its write committed). */
export function startSeekCheck(core: RoomCore, item: MediaItem): void {
  const probe = core.deps.seekProbe;
  if (!probe || item.seekable !== 'checking') return;
  const probes = SEEK_CHECKS.of(core);
  probes.get(item.id)?.abort();
  const controller = new AbortController();
  probes.set(item.id, controller);
  const finish = (seekable: ProbedSeekable): void => {
    if (probes.get(item.id) === controller) probes.delete(item.id);
    if (controller.signal.aborted) return;
    const result: SeekResult = { kind: SEEK_RESULT_KIND, mediaId: item.id, url: item.url, seekable };
    core.ctx.schedule(0, result);
  };
  probe.probe(item, controller.signal, core.id).then(finish, () => finish('unknown'));
}

/** A new activation probes again what a crash (or a passivation) left `checking`. */
export function resumeSeekChecks(core: RoomCore): void {
  for (const { item } of core.playlist) startSeekCheck(core, item);
}

export function seekChecksRunning(core: RoomCore): number {
  return SEEK_CHECKS.of(core).size;
}

export function abortSeekChecks(core: RoomCore): void {
  const probes = SEEK_CHECKS.of(core);
  for (const controller of probes.values()) controller.abort();
  probes.clear();
}

/** Records a probe's answer, unless the item has gone or changed since it was asked (an internal command: room-actor.ts checks it was scheduled). */
export async function recordSeekable(core: RoomCore, raw: unknown): Promise<{ recorded: boolean }> {
  const result = raw as SeekResult;
  const index = core.playlist.findIndex((e) => e.item.id === result.mediaId);
  const entry = core.playlist[index];
  if (!entry || entry.item.url !== result.url || entry.item.seekable !== 'checking') return { recorded: false };
  try {
    await core.durable('record whether media can seek', (client) => setMediaSeekable(client, core.id, result.mediaId, result.seekable));
  } catch (err) {
    if (isFencedError(err)) throw err;
    // It stays `checking` (seeking allowed meanwhile); the next activation probes again.
    core.logger.warn({ err: messageOf(err), mediaId: result.mediaId }, 'could not record whether media can seek');
    return { recorded: false };
  }
  const item: MediaItem = { ...entry.item, seekable: result.seekable };
  core.playlist = core.playlist.map((e, i) => (i === index ? { item, sortKey: e.sortKey } : e));
  core.publish({ type: 'playlist', op: 'edited', item });
  core.publish({ type: 'media.checked', mediaId: item.id, seekable: item.seekable, reachHow: item.reach?.how ?? null });
  return { recorded: true };
}
