/**
 * The subtitles of the playing item for one player: the item's tracks (GET .../subtitles: its
 * own, then those found inside proxied media), the one to show by this browser's choice
 * (choice.ts), its text (GET .../subtitles/{trackId}: WebVTT or ASS, converted by the server)
 * shown over the video (render.ts), and the text size of native tracks. While a picture
 * subtitle is burned into the video (`burning`, burn.ts) no text track shows over it.
 */
import { useEffect, useState } from 'preact/hooks';
import type { NowPlaying } from '../../../../contracts/room/model.js';
import { api, call } from '../../api/client.js';
import { pickTrack, subtitleChoice, type SubtitleSize, type SubtitleTrack } from './choice.js';
import { liftCuesOverControls } from './over-controls.js';
import { showAss, showVtt, type Hide } from './render.js';
import { t } from '../../i18n/i18n.js';

export interface SubtitleState {
  tracks: SubtitleTrack[];
  /** The id of the track shown, or null. */
  shown: string | null;
  /** Why the chosen track could not be shown, if it could not. */
  problem: string | null;
}

/** Native cues are 5% of the video's height in Chromium and Firefox; sizes scale that. */
const CUE_HEIGHT_SHARE = 0.05;

export function useSubtitles(roomId: string, item: Pick<NowPlaying, 'id' | 'subtitles' | 'live'> | null, video: HTMLVideoElement | null, burning = false): SubtitleState {
  const [tracks, setTracks] = useState<SubtitleTrack[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const choice = subtitleChoice.value;
  // An edit of the item's tracks lists them again.
  const itemKey = item ? `${item.id}|${JSON.stringify(item.subtitles)}` : '';

  useEffect(() => {
    setTracks([]);
    setProblem(null);
    if (!item || item.live) return;
    let cancelled = false;
    call(api.GET('/api/rooms/{roomId}/playlist/{mediaId}/subtitles', { params: { path: { roomId, mediaId: item.id } } })).then(
      (answer) => !cancelled && setTracks(answer.tracks),
      (error: unknown) => !cancelled && setProblem(t('player.subtitles.listFailed', { reason: error instanceof Error ? error.message : String(error) })),
    );
    return () => {
      cancelled = true;
    };
  }, [roomId, itemKey]); // itemKey stands for the fields of item that matter

  const track = burning ? null : pickTrack(tracks, choice.track);
  const trackKey = track && item ? `${item.id}|${track.id}|${track.name}` : '';
  useEffect(() => {
    if (!video || !track || !item) return;
    let hide: Hide | null = null;
    let cancelled = false;
    setProblem(null);
    call(api.GET('/api/rooms/{roomId}/playlist/{mediaId}/subtitles/{trackId}', { params: { path: { roomId, mediaId: item.id, trackId: track.id } } }))
      .then(async (answer) => {
        if (cancelled) return;
        const shown = answer.format === 'ass' ? await showAss(video, answer.text) : showVtt(video, answer.text, track.name, track.language);
        if (cancelled) shown();
        else hide = shown;
      })
      .catch((error: unknown) => !cancelled && setProblem(t('player.subtitles.showFailed', { name: track.name, reason: error instanceof Error ? error.message : String(error) })));
    return () => {
      cancelled = true;
      hide?.();
    };
  }, [video, trackKey]); // trackKey stands for the track and item

  useCueSize(video, choice.size);
  useEffect(() => (video ? liftCuesOverControls(video) : undefined), [video]);
  return { tracks, shown: track?.id ?? null, problem };
}

/** Sizes native cues to the chosen share of the video's height, following the element's size. */
function useCueSize(video: HTMLVideoElement | null, size: SubtitleSize): void {
  useEffect(() => {
    if (!video) return;
    const apply = () => video.style.setProperty('--subtitle-font-size', `${Math.max(10, video.clientHeight * CUE_HEIGHT_SHARE * (size / 100)).toFixed(1)}px`);
    apply();
    video.classList.add('has-subtitle-size');
    const observer = new ResizeObserver(apply);
    observer.observe(video);
    return () => observer.disconnect();
  }, [video, size]);
}
