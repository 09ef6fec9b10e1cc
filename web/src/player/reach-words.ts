/**
 * How an item reaches browsers, in words (contracts/room/reach.ts, PlayInfo.transcode): the
 * playlist's line under an item, the add-media form's note about the item just added, and the
 * player's line while a transcoded item plays. An item that plays as it is gets no line: said on
 * every item it would be noise. Pure, over the i18n `t`, so the unit tests read the words.
 */
import type { MediaReach } from '../../../contracts/room/reach.js';
import { t } from '../i18n/i18n.js';
import type { Schemas } from '../api/types.js';

type PlayTranscode = Schemas['PlayTranscode'];

/** The fields of a reach the words are made from. */
export type ReachWords = Pick<MediaReach, 'how' | 'blockers' | 'heights' | 'video' | 'audio' | 'imageSubtitles'>;

/** "1080p" */
export function heightText(height: number): string {
  return t('player.quality.height', { height });
}

/** "1080p / 720p / 480p" */
export function heightsText(heights: readonly number[]): string {
  return heights.map(heightText).join(t('playlist.reach.heightsSeparator'));
}

/** The item's line: null when it plays as it is or is not known yet. */
export function reachLine(reach: ReachWords | null): string | null {
  if (reach === null) return null;
  switch (reach.how) {
    case 'direct':
      return null;
    case 'remux':
      return t('playlist.reach.remux');
    case 'audio':
      return reach.audio ? t('playlist.reach.audioFrom', { audio: reach.audio }) : t('playlist.reach.audio');
    case 'video':
      return reach.heights.length > 0 ? t('playlist.reach.video', { heights: heightsText(reach.heights) }) : t('playlist.reach.videoAny');
  }
}

/** What browsers cannot take, "Browsers cannot play: HEVC 10-bit video, E-AC3 audio"; null when nothing. */
export function reachBlockers(reach: ReachWords): string | null {
  if (reach.blockers.length === 0) return null;
  const blockers = reach.blockers.map((blocker) => t(`playlist.reach.blocker.${blocker.kind}`, { name: blocker.name })).join(t('playlist.reach.blockersSeparator'));
  return t('playlist.reach.why', { blockers });
}

/** The detail under the line: why, the source's streams, and its image subtitles. */
export function reachDetails(reach: ReachWords): string[] {
  const why = reachBlockers(reach);
  return [
    ...(why ? [why] : []),
    ...(reach.video ? [t('playlist.reach.sourceVideo', { video: reach.video })] : []),
    ...(reach.audio ? [t('playlist.reach.sourceAudio', { audio: reach.audio })] : []),
    ...(reach.imageSubtitles.length > 0 ? [t('playlist.reach.imageSubtitles', { count: reach.imageSubtitles.length })] : []),
  ];
}

/** The rung state the player's line needs (a QualityControl has it). */
export interface RungNow {
  current: number | null;
  auto: boolean;
}

/** The player's line while an item plays through the shared transcode. */
export function transcodeLine(transcode: Pick<PlayTranscode, 'how' | 'heights'>, rung: RungNow | null): string {
  if (transcode.how !== 'video') return t(`player.transcode.${transcode.how}`);
  if (rung && rung.current !== null) return t(rung.auto ? 'player.transcode.videoAuto' : 'player.transcode.video', { height: heightText(rung.current) });
  return transcode.heights.length > 0 ? t('player.transcode.videoTo', { heights: heightsText(transcode.heights) }) : t('player.transcode.videoAny');
}

/** Why no transcoder took the item, as the player says it (the server's sentence without its full stop). */
export function refusedLine(reason: string): string {
  let sentence = reason.trim();
  while (sentence.endsWith('.') || sentence.endsWith('。')) sentence = sentence.slice(0, -1);
  return t('player.transcode.refused', { reason: sentence });
}
