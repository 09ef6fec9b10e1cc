/**
 * Burned variants of an item's transcode (issue 40: "image subtitles (PGS, VobSub) can be
 * burned in on request; text ones stay tracks"). A player cannot draw a picture subtitle, so a
 * viewer who wants one switches to a variant of the transcode with that stream burned into the
 * picture: `master-s<index>.m3u8`, whose rungs are `<height>-s<index>`. Every viewer choosing
 * the same stream of the same source shares one encoder per rung (the transcoder's job key
 * holds the stream).
 *
 * Burning needs converted video. An item whose video is converted burns on each rung of its
 * ladder. An item whose video is copied (a remux, or only the audio converted) gets one burned
 * rung, converted at the source height capped by `transcoder.max_height` as a ladder's top is:
 * its timeline then has D = 2 s while the copied rung's has 6 s. That is fine: a player switches
 * the whole source (another master playlist), never mixes rungs of the two, and the room's sync
 * works on media time, which both timelines share.
 *
 * An item that plays as it is (`direct`) cannot ask: its file goes to the browser untouched, and
 * often not through this server at all (an unproxied link); a burned variant would put a
 * transcoder in the path of every such file with a picture subtitle, for files that are rare (MP4
 * with VobSub: WebM carries no picture subtitles). Its image subtitles are listed in the reach,
 * not offered.
 */
import type { ImageSubtitle, MediaReach } from '../../contracts/room/reach.js';
import { AppError } from '../../errors/index.js';

/** The image subtitle streams a viewer may ask to have burned in: none for `direct` items or media without video. */
export function burnableOf(reach: MediaReach): ImageSubtitle[] {
  return reach.how === 'direct' || reach.videoStream === null ? [] : reach.imageSubtitles;
}

/** The burnable stream `index` of the item, or `not_found` naming those it has. */
export function requireBurnable(reach: MediaReach, index: number): ImageSubtitle {
  const burnable = burnableOf(reach);
  const found = burnable.find((stream) => stream.index === index);
  if (found) return found;
  const have = burnable.length === 0 ? 'it has no picture subtitles that can be burned in' : `it has ${burnable.map((stream) => `s${stream.index}`).join(', ')}`;
  throw new AppError('not_found', `this transcode has no picture subtitle stream s${index} to burn in; ${have}`);
}

/**
 * The reach a burned variant is planned from: the video converted, on the item's own ladder
 * when it has one, else at the source height capped by `maxHeight`.
 */
export function burnedReach(reach: MediaReach, maxHeight: number): MediaReach {
  if (reach.videoTreatment === 'convert') return reach;
  const height = Math.min(reach.height ?? reach.facts.height ?? 720, maxHeight);
  return { ...reach, videoTreatment: 'convert', heights: [height] };
}

/** `master.m3u8`, or `master-s<index>.m3u8` for a burned variant. */
export function masterName(burn: number | undefined): string {
  return burn === undefined ? 'master.m3u8' : `master-s${burn}.m3u8`;
}

/** A rung's path segment: its height (0 for copied video), and `-s<index>` in a burned variant. */
export function rungName(rung: number, burn: number | undefined): string {
  return burn === undefined ? String(rung) : `${rung}-s${burn}`;
}

const NUMBER = '(0|[1-9][0-9]{0,5})';
const MASTER = new RegExp(`^master(?:-s${NUMBER})?\\.m3u8$`);
const RUNG = new RegExp(`^${NUMBER}(?:-s${NUMBER})?$`);

/** The burn a master playlist's name asks for (`undefined`: the plain one); null when the name is no master playlist. */
export function parseMasterName(name: string): { burn: number | undefined } | null {
  const match = MASTER.exec(name);
  if (!match) return null;
  return { burn: match[1] === undefined ? undefined : Number(match[1]) };
}

/** The rung and burn a rung's path segment names; null when it names none. */
export function parseRungName(name: string): { rung: number; burn: number | undefined } | null {
  const match = RUNG.exec(name);
  if (!match) return null;
  return { rung: Number(match[1]), burn: match[2] === undefined ? undefined : Number(match[2]) };
}
