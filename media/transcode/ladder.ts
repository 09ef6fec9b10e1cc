/**
 * An item's transcode as players see it: its rungs and the URLs of its playlists and segments
 * under `/media/transcode/<grant>/` (gateways/media/transcode-routes.ts). A rung is named by its
 * height; rung 0 is the one rung of an item whose video is copied (a remux, or only the audio
 * converted), which keeps the source's picture. A burned variant (burn.ts) is planned from its
 * burned reach and names its rungs `<height>-s<index>`.
 */
import type { MediaReach } from '../../contracts/room/reach.js';
import { rungName } from './burn.js';
import { shapeRung, type RungRequest } from './encode-plan.js';
import { masterPlaylist, mediaPlaylist } from './hls-playlists.js';

/** The grant resource of a transcode's files: one grant reads every rung of its item. */
export const TRANSCODE_RESOURCE = 'transcode';

/** `/media/transcode/<token>/<path>`: `master.m3u8`, `<rung>/index.m3u8`, `<rung>/init.mp4`, `<rung>/<n>.m4s` (and `master-s<index>.m3u8`, `<height>-s<index>/…`). */
export function transcodeUrl(token: string, path: string): string {
  return `/media/transcode/${encodeURIComponent(token)}/${path}`;
}

/** The rungs of an item's transcode, highest first. */
export function transcodeRungs(reach: MediaReach): number[] {
  return reach.videoTreatment === 'convert' ? reach.heights : [0];
}

/**
 * The master playlist: one variant per rung, highest first, each at `<rung>/index.m3u8`; with
 * `burn`, of a burned variant (`reach` its burned reach), at `<rung>-s<burn>/index.m3u8`.
 */
export function masterPlaylistOf(reach: MediaReach, burn?: number): string {
  return masterPlaylist(transcodeRungs(reach).map((rung) => ({ url: `${rungName(rung, burn)}/index.m3u8`, ...shapeRung(reach, reach.facts, rungRequest(rung, burn)).variant })));
}

/** The VOD playlist of a rung (every rung of an item has the same one: the timeline is shared). */
export function rungPlaylistOf(reach: MediaReach): string {
  const shape = shapeRung(reach, reach.facts);
  return mediaPlaylist({ durationSeconds: shape.durationSeconds, segmentSeconds: shape.segmentSeconds, initUrl: 'init.mp4', segmentUrl: (n) => `${n}.m4s` });
}

/** What a rung asks of the plan: its height, when the video is converted, and the image subtitle stream burned in. */
export function rungRequest(rung: number, burn?: number): RungRequest {
  return { ...(rung === 0 ? {} : { height: rung }), ...(burn === undefined ? {} : { burnSubtitle: burn }) };
}
