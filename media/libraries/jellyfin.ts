/**
 * Jellyfin (https://jellyfin.org) as a media library: its OpenAPI document (the one
 * `@jellyfin/sdk` is generated from) names every path and query used here. The token travels
 * only in the `Authorization: MediaBrowser ..., Token="..."` header, the one header Jellyfin 12
 * still accepts (no `api_key` in URLs: they would reach logs and, through the proxy, nothing else
 * needs them). Shared behaviour: ./media-browser.ts.
 */
import type { UpstreamClient } from '../proxy/upstream-client.js';
import {
  authorizationParams,
  CLIENT_NAME,
  CLIENT_VERSION,
  DEVICE_NAME,
  MediaBrowserConnector,
  queryString,
  TRANSCODE_TARGET,
  type ItemsQuery,
  type MediaBrowserDialect,
} from './media-browser.js';

/** Item fields a listing needs beyond the defaults: sizes come with the media sources. */
const LIST_FIELDS = 'MediaSources';

export const jellyfinDialect: MediaBrowserDialect = {
  kind: 'jellyfin',
  label: 'Jellyfin',
  authHeaders(token, device) {
    const params: Record<string, string> = { Client: CLIENT_NAME, Device: DEVICE_NAME, DeviceId: device, Version: CLIENT_VERSION };
    if (token !== null) params.Token = token;
    return { authorization: `MediaBrowser ${authorizationParams(params)}` };
  },
  viewsPath: (userId) => `/UserViews${queryString({ userId })}`,
  itemsPath: (userId, query: ItemsQuery) =>
    `/Items${queryString({
      userId,
      parentId: query.parentId,
      searchTerm: query.searchTerm,
      recursive: query.recursive,
      includeItemTypes: query.includeItemTypes?.join(','),
      fields: LIST_FIELDS,
      enableUserData: false,
      enableImages: false,
      enableTotalRecordCount: true,
      sortBy: 'SortName',
      limit: query.limit,
    })}`,
  itemPath: (userId, itemId) => `/Items/${encodeURIComponent(itemId)}${queryString({ userId })}`,
  usersPath: () => '/Users',
  streamPath: (itemId, mediaSourceId) => `/Videos/${encodeURIComponent(itemId)}/stream${queryString({ static: true, mediaSourceId })}`,
  // DynamicHlsController's GetMasterHlsVideoPlaylist (and its Audio twin). One variant, not the
  // adaptive ladder Jellyfin adds by default: each variant would be an encode of its own.
  masterPlaylistPath: (media, itemId, session) =>
    `/${media}/${encodeURIComponent(itemId)}/master.m3u8${queryString({
      mediaSourceId: session.mediaSourceId,
      deviceId: session.deviceId,
      playSessionId: session.playSessionId,
      videoCodec: media === 'Videos' ? TRANSCODE_TARGET.videoCodec : undefined,
      audioCodec: TRANSCODE_TARGET.audioCodec,
      transcodingMaxAudioChannels: TRANSCODE_TARGET.audioChannels,
      segmentContainer: TRANSCODE_TARGET.segmentContainer,
      enableAdaptiveBitrateStreaming: false,
    })}`,
  subtitlePath: (itemId, mediaSourceId, index) => `/Videos/${encodeURIComponent(itemId)}/${encodeURIComponent(mediaSourceId)}/Subtitles/${index}/Stream.vtt`,
};

export function jellyfinConnector(http: UpstreamClient): MediaBrowserConnector {
  return new MediaBrowserConnector(http, jellyfinDialect);
}
