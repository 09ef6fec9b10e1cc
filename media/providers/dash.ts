/**
 * `dash`: an MPEG-DASH manifest (mpd), played by dash.js. Unproxied, the browser fetches the
 * manifest and segments itself; proxied, the proxy rewrites every URL in the manifest
 * (media/proxy/mpd-rewrite.ts) to signed proxy URLs of the folders they name, so segments come
 * through the service, with the item's headers on the item's own origin only.
 */
import type { MediaItem } from '../../contracts/room/model.js';
import type { MediaProvider, Upstream } from '../provider.js';

export const dashProvider: MediaProvider = {
  name: 'dash',
  label: 'MPEG-DASH stream (mpd)',
  proxy: 'optional',
  live: false,
  // Players seek by loading the segment at the position: no Range support needed.
  seeking: 'always',
  resolve(item: MediaItem): Promise<Upstream> {
    return Promise.resolve({ url: item.url, headers: item.headers, type: 'dash', identity: `url:${item.url}` });
  },
};
