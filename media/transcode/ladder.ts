/**
 * An item's transcode as players see it: its rungs and the URLs of its playlists and segments
 * under `/media/transcode/<grant>/` (gateways/media/transcode-routes.ts). A rung is named by its
 * height; rung 0 is the one rung of an item whose video is copied (a remux, or only the audio
 * converted), which keeps the source's picture.
 */
import type { MediaReach } from '../../contracts/room/reach.js';

/** The grant resource of a transcode's files: one grant reads every rung of its item. */
export const TRANSCODE_RESOURCE = 'transcode';

/** `/media/transcode/<token>/<path>`: `master.m3u8`, `<rung>/index.m3u8`, `<rung>/init.mp4`, `<rung>/<n>.m4s`. */
export function transcodeUrl(token: string, path: string): string {
  return `/media/transcode/${encodeURIComponent(token)}/${path}`;
}

/** The rungs of an item's transcode, highest first. */
export function transcodeRungs(reach: MediaReach): number[] {
  return reach.videoTreatment === 'convert' ? reach.heights : [0];
}
