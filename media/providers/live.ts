/**
 * The `live` provider: items whose source is this service's own RTMP ingest
 * (docs/2026-11-23-livestreams.md). The service serves the bytes itself, so there is nothing
 * to proxy or resolve; `play` hands each member signed `/media/live/<grant>/...` URLs for the
 * item: HTTP-FLV first (lowest latency, needs MSE: flv.js / mpegts.js), then HLS.
 * Register it with the provider registry like the built-in ones: `registry.register(liveProvider)`.
 */
import { AppError } from '../../errors/index.js';
import type { MediaItem } from '../../contracts/room/model.js';
import type { MediaProvider, PlayContext, PlayInfo, Upstream } from '../provider.js';

/** The grant resource of livestream playback (gateways/http/routes/media-live.ts checks it). */
export const LIVE_RESOURCE = 'live';

export const liveProvider: MediaProvider = {
  name: 'live',
  label: 'Livestream (RTMP to this server)',
  proxy: 'never',
  live: true,
  // The service fills a live item's url itself (actors/room/validate.ts liveItemUrl).
  check: () => [],
  resolve(item: MediaItem): Promise<Upstream> {
    return Promise.reject(new AppError('invalid_argument', `media ${item.id} is a livestream of this server: play it through the play endpoint, there is no upstream to fetch`));
  },
  play: (item, context) => Promise.resolve(liveStreamPlay(item, context)),
};

/**
 * How a member plays a stream this server serves (published or pulled): signed
 * `/media/live/<grant>/` links, HTTP-FLV first, then HLS.
 */
export function liveStreamPlay(item: MediaItem, context: PlayContext): PlayInfo {
  const { token, expiresAt } = context.grant(LIVE_RESOURCE);
  const base = `/media/live/${encodeURIComponent(token)}`;
  return {
    sources: [
      { type: 'flv', url: `${base}/stream.flv` },
      { type: 'hls', url: `${base}/index.m3u8` },
    ],
    subtitles: item.subtitles,
    live: true,
    proxied: false,
    expiresAt,
  };
}
