/**
 * The part of YouTube's IFrame Player API (https://developers.google.com/youtube/iframe_api_reference)
 * svc uses, typed, and its loader: the script named by the `youtube` provider's `embed.script`
 * (the server's `youtube.iframe_api_url`), added once per page; it calls
 * `window.onYouTubeIframeAPIReady` when `YT.Player` can be constructed.
 */
import { t } from '../../i18n/i18n.js';

/** YT.PlayerState */
export const STATE = { UNSTARTED: -1, ENDED: 0, PLAYING: 1, PAUSED: 2, BUFFERING: 3, CUED: 5 } as const;

export interface YTPlayer {
  playVideo(): void;
  pauseVideo(): void;
  seekTo(seconds: number, allowSeekAhead: boolean): void;
  getCurrentTime(): number;
  getDuration(): number;
  getPlayerState(): number;
  getPlaybackRate(): number;
  setPlaybackRate(rate: number): void;
  getAvailablePlaybackRates(): number[];
  getVolume(): number;
  setVolume(volume: number): void;
  isMuted(): boolean;
  mute(): void;
  unMute(): void;
  cuePlaylist(options: { list: string; listType: 'playlist' }): void;
  getPlaylist(): string[] | null;
  destroy(): void;
}

export interface YTPlayerOptions {
  events: {
    onReady?: (event: { target: YTPlayer }) => void;
    onStateChange?: (event: { data: number; target: YTPlayer }) => void;
    onPlaybackRateChange?: (event: { data: number }) => void;
    onError?: (event: { data: number }) => void;
  };
}

export interface YTNamespace {
  Player: new (element: HTMLIFrameElement, options: YTPlayerOptions) => YTPlayer;
}

type YTWindow = Window & { YT?: YTNamespace & { loaded?: number }; onYouTubeIframeAPIReady?: () => void };

let loading: Promise<YTNamespace> | null = null;

/** The API, once its script has loaded (one script element per page, whatever the number of players). */
export function loadYouTubeApi(script: string): Promise<YTNamespace> {
  loading ??= new Promise<YTNamespace>((resolve, reject) => {
    const win = window as YTWindow;
    const previous = win.onYouTubeIframeAPIReady;
    win.onYouTubeIframeAPIReady = () => {
      previous?.();
      if (win.YT) resolve(win.YT);
    };
    const element = document.createElement('script');
    element.src = script;
    element.async = true;
    element.onerror = () => {
      loading = null;
      element.remove();
      reject(new Error(t('player.youtube.scriptFailed', { host: 'youtube.com' })));
    };
    document.head.append(element);
  });
  return loading;
}

/** YouTube's documented error codes, in words. */
export function youTubeError(code: number): string {
  switch (code) {
    case 2:
      return t('player.youtube.errors.badId');
    case 5:
      return t('player.youtube.errors.html5');
    case 100:
      return t('player.youtube.errors.notFound');
    case 101:
    case 150:
      return t('player.youtube.errors.notEmbeddable');
    case 153:
      return t('player.youtube.errors.noReferer');
    default:
      return t('player.youtube.errors.other', { code });
  }
}

/** The video id of a watch URL the play endpoint answered. */
export function videoIdOf(watchUrl: string): string {
  return new URL(watchUrl).searchParams.get('v') ?? '';
}
