/**
 * Picture subtitles burned in (docs/2026-11-29-how-items-reach-browsers.md, "Burning in image
 * subtitles"). A player cannot draw PGS or VobSub, so the server offers, for an item it
 * transcodes, a variant of the transcode with one such stream burned into the picture
 * (PlayInfo.transcode.burnable: its own master playlist). Choosing one swaps the player's whole
 * source for that master (sources.ts); choosing Off or a text track swaps back.
 *
 * The choice is of one item: a stream index means nothing in the next one, so it is kept with
 * the item's id and forgotten when another item plays (never stored in the browser, unlike the
 * text track choice, choice.ts). Pure apart from the signal, for the unit tests.
 */
import { signal } from '@preact/signals';
import type { Schemas } from '../../api/types.js';
import { t } from '../../i18n/i18n.js';

export type BurnableSubtitle = Schemas['BurnableSubtitle'];
type PlayInfo = Schemas['PlayInfo'];

/** The viewer's choice: stream `index` of item `mediaId` burned in; null: none. */
export interface BurnChoice {
  mediaId: string;
  index: number;
}

export const burnChoice = signal<BurnChoice | null>(null);

/** Chooses stream `index` of `mediaId` to see burned in, or none (null). */
export function chooseBurn(mediaId: string, index: number | null): void {
  burnChoice.value = index === null ? null : { mediaId, index };
}

/** The stream chosen for `mediaId` (null: none, or a choice made for another item). */
export function burnFor(choice: BurnChoice | null, mediaId: string | null): number | null {
  return choice !== null && choice.mediaId === mediaId ? choice.index : null;
}

/** Forgets a choice made for an item other than `mediaId` (the item changed). */
export function forgetBurnUnless(mediaId: string | null): void {
  if (burnFor(burnChoice.value, mediaId) === null && burnChoice.value !== null) burnChoice.value = null;
}

/**
 * The sources to play for `burn`: the burned master in place of the others when the answer
 * offers that stream; else the answer's own sources (and nothing burned: an item whose
 * transcode was refused, or whose streams changed, plays as it would).
 */
export function sourcesFor(info: Pick<PlayInfo, 'sources' | 'transcode'>, burn: number | null): { sources: PlayInfo['sources']; burned: number | null } {
  const offered = burn === null ? undefined : info.transcode?.burnable?.find((stream) => stream.index === burn);
  return offered ? { sources: [{ url: offered.url, type: 'hls' }], burned: offered.index } : { sources: info.sources, burned: null };
}

/**
 * The menu's name of a burned stream: "<language or title> (picture, burned in)", with the
 * title, else the stream's number, added when two of the item's would read alike.
 */
export function burnedLabel(stream: BurnableSubtitle, all: readonly BurnableSubtitle[]): string {
  const base = (candidate: BurnableSubtitle) => candidate.language ?? candidate.title ?? t('player.subtitles.stream', { index: candidate.index });
  const name = base(stream);
  const twin = all.some((other) => other.index !== stream.index && base(other) === name);
  const told = twin ? `${name} · ${stream.title !== null && stream.title !== name ? stream.title : t('player.subtitles.stream', { index: stream.index })}` : name;
  return t('player.subtitles.burned', { name: told });
}
