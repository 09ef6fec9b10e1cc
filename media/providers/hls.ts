/**
 * `hls`: an HLS playlist (m3u8). Unproxied, the browser fetches playlist and segments itself;
 * proxied, the proxy rewrites every URI in the playlists to signed proxy URLs
 * (media/proxy/hls-rewrite.ts), so segments and keys come through the service, with the item's
 * headers when they are on the item's own origin (and without them anywhere else).
 */
import type { MediaItem } from '../../contracts/room/model.js';
import type { MediaProvider, Upstream } from '../provider.js';

export const hlsProvider: MediaProvider = {
  name: 'hls',
  label: 'HLS stream (m3u8)',
  proxy: 'optional',
  live: false,
  // Players seek by loading the segment at the position: no Range support needed.
  seeking: 'always',
  resolve(item: MediaItem): Promise<Upstream> {
    return Promise.resolve({ url: item.url, headers: item.headers, type: 'hls', identity: `url:${item.url}` });
  },
};
