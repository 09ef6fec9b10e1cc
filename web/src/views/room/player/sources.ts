/**
 * How a playlist item gets into the <video> element, by provider: a direct file natively, HLS
 * natively where the browser has it (Safari) else through hls.js, FLV live through mpegts.js.
 * The libraries are imported dynamically, only when an item needs them, so they stay out of
 * the initial bundle. A <video> element cannot send an item's `headers`: items that need them
 * play through the media proxy (issue 12), which adds them upstream.
 */
import type { MediaItem } from '../../../../../actors/room/model.js';

/** Detaches the source from the element and frees what the loader holds. */
export type Detach = () => void;

export type SourceLoader = (video: HTMLVideoElement, item: MediaItem) => Promise<Detach>;

const isHls = (item: MediaItem): boolean => item.provider === 'hls' || /\.m3u8(\?|#|$)/i.test(item.url);
const isFlv = (item: MediaItem): boolean => item.provider === 'live' || /\.flv(\?|#|$)/i.test(item.url);

const direct: SourceLoader = (video, item) => {
  video.src = item.url;
  return Promise.resolve(() => {
    video.removeAttribute('src');
    video.load();
  });
};

const hls: SourceLoader = async (video, item) => {
  if (video.canPlayType('application/vnd.apple.mpegurl')) return direct(video, item);
  const { default: Hls } = await import('hls.js');
  if (!Hls.isSupported()) throw new Error('this browser cannot play HLS streams');
  const player = new Hls({ lowLatencyMode: item.live });
  player.loadSource(item.url);
  player.attachMedia(video);
  return () => player.destroy();
};

const flv: SourceLoader = async (video, item) => {
  const { default: mpegts } = await import('mpegts.js');
  if (!mpegts.isSupported()) throw new Error('this browser cannot play FLV streams');
  const player = mpegts.createPlayer({ type: 'flv', isLive: item.live, url: item.url });
  player.attachMediaElement(video);
  player.load();
  return () => {
    player.unload();
    player.detachMediaElement();
    player.destroy();
  };
};

/** Loaders tried in order: the first whose test matches the item plays it. Providers of later issues add theirs here. */
const LOADERS: Array<{ matches(item: MediaItem): boolean; load: SourceLoader }> = [
  { matches: isHls, load: hls },
  { matches: isFlv, load: flv },
  { matches: () => true, load: direct },
];

export function loadSource(video: HTMLVideoElement, item: MediaItem): Promise<Detach> {
  return LOADERS.find((loader) => loader.matches(item))!.load(video, item);
}
