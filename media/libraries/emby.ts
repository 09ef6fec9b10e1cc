/**
 * Emby (https://emby.media) as a media library, through its REST API as Emby documents it
 * (dev.emby.media, "API Reference": UserService, UserViewsService, ItemsService,
 * UserLibraryService, VideoService, SubtitleService, DynamicHlsService). Emby keeps the user-scoped paths
 * (`/Users/{UserId}/Views`, `/Users/{UserId}/Items`) and PascalCase query names; the client is
 * described in `X-Emby-Authorization` and the token travels in `X-Emby-Token`, never in a URL.
 * Shared behaviour: ./media-browser.ts.
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

const LIST_FIELDS = 'MediaSources';

export const embyDialect: MediaBrowserDialect = {
  kind: 'emby',
  label: 'Emby',
  authHeaders(token, device) {
    const headers: Record<string, string> = {
      'x-emby-authorization': `Emby ${authorizationParams({ Client: CLIENT_NAME, Device: DEVICE_NAME, DeviceId: device, Version: CLIENT_VERSION })}`,
    };
    if (token !== null) headers['x-emby-token'] = token;
    return headers;
  },
  viewsPath: (userId) => `/Users/${encodeURIComponent(userId)}/Views`,
  itemsPath: (userId, query: ItemsQuery) =>
    `/Users/${encodeURIComponent(userId)}/Items${queryString({
      ParentId: query.parentId,
      SearchTerm: query.searchTerm,
      Recursive: query.recursive,
      IncludeItemTypes: query.includeItemTypes?.join(','),
      Fields: LIST_FIELDS,
      EnableUserData: false,
      EnableImages: false,
      SortBy: 'SortName',
      Limit: query.limit,
    })}`,
  itemPath: (userId, itemId) => `/Users/${encodeURIComponent(userId)}/Items/${encodeURIComponent(itemId)}`,
  usersPath: () => '/Users',
  streamPath: (itemId, mediaSourceId) => `/Videos/${encodeURIComponent(itemId)}/stream${queryString({ Static: true, MediaSourceId: mediaSourceId })}`,
  // DynamicHlsService's getVideosByIdMasterM3u8 ("Http Live Streaming": MediaSourceId and DeviceId required).
  masterPlaylistPath: (media, itemId, session) =>
    `/${media}/${encodeURIComponent(itemId)}/master.m3u8${queryString({
      MediaSourceId: session.mediaSourceId,
      DeviceId: session.deviceId,
      PlaySessionId: session.playSessionId,
      VideoCodec: media === 'Videos' ? TRANSCODE_TARGET.videoCodec : undefined,
      AudioCodec: TRANSCODE_TARGET.audioCodec,
      TranscodingMaxAudioChannels: TRANSCODE_TARGET.audioChannels,
      SegmentContainer: TRANSCODE_TARGET.segmentContainer,
    })}`,
  subtitlePath: (itemId, mediaSourceId, index) => `/Videos/${encodeURIComponent(itemId)}/${encodeURIComponent(mediaSourceId)}/Subtitles/${index}/Stream.vtt`,
};

export function embyConnector(http: UpstreamClient): MediaBrowserConnector {
  return new MediaBrowserConnector(http, embyDialect);
}
