/**
 * `direct`: a file on an HTTP(S) server (mp4, webm, mkv), fetched with the item's headers.
 * The proxy is the member's choice: without it each browser fetches the URL itself, which
 * works only when the host needs no headers a media element cannot send.
 */
import type { MediaItem } from '../../contracts/room/model.js';
import type { MediaProvider, Upstream } from '../provider.js';
import { sourceTypeOfUrl } from './source-type.js';

export const directProvider: MediaProvider = {
  name: 'direct',
  label: 'Video file (mp4, webm, mkv)',
  proxy: 'optional',
  live: false,
  resolve(item: MediaItem): Promise<Upstream> {
    // Items added before HLS had its own provider keep playing by their extension.
    return Promise.resolve({ url: item.url, headers: item.headers, type: sourceTypeOfUrl(item.url), identity: `url:${item.url}` });
  },
};
