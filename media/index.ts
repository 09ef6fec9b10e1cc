/**
 * The public surface of media/: what code outside media/ may import (lint refuses a deeper
 * import; tests may reach inside). docs/2026-11-29-public-surfaces.md.
 */
export { SliceCache } from './cache/slice-cache.js';
export { isSlicePieces, type SliceCacheApi, type SliceCacheStats } from './cache/types.js';
export { writePieces } from './cache/write-pieces.js';
export { createMediaLibraries } from './libraries/create.js';
export { type ConnectInput, type LibraryStanding, type MediaLibraries, type OpenLibrary } from './libraries/libraries.js';
export { type LibraryRecord } from './libraries/library-store.js';
export { LibraryUpstreamBudget } from './libraries/upstream-budget.js';
export { RTMP_APP, publishUrls } from './live/publish-url.js';
export { feedHls } from './live/hls-feed.js';
export { pullInput, pullRefusal, type PullInput } from './live/pull-input.js';
export { StreamKeys, type KeyHolding, type StreamTarget } from './live/stream-keys.js';
export { type MediaGrant, type MediaGrants } from './media-grant.js';
export { createMediaServices, type MediaServices } from './media-services.js';
export { isProxied, playInfoFor } from './play-info.js';
export { LibraryProvider } from './providers/library.js';
export { LIVE_RESOURCE, liveProvider } from './providers/live.js';
export { PULL_PROVIDER, PullProvider } from './providers/pull.js';
export { AddressPolicy } from './proxy/address-policy.js';
export { MediaProxy, type ProxyTraffic } from './proxy/media-proxy.js';
export { fileNameOf, proxyUrl } from './proxy/proxy-url.js';
export { type UpstreamClient } from './proxy/upstream-client.js';
export { upstreamReadKey } from './read-key.js';
export { UpstreamSeekProbe } from './seek-probe.js';
export { SubtitleFiles } from './subtitles/subtitle-files.js';
export { SubtitleTextError } from './subtitles/subtitle-text.js';
export { SubtitleTracks, type EmbeddedSource, type ProvidedSource } from './subtitles/subtitle-tracks.js';
export { mediaToolMetrics } from './tools/tool-metrics.js';
export { burnableOf, burnedReach, masterName, parseMasterName, parseRungName, requireBurnable } from './transcode/burn.js';
export { TRANSCODE_RESOURCE, masterPlaylistOf, rungPlaylistOf, transcodeRungs } from './transcode/ladder.js';
export { openTranscoder, type RunningTranscoder } from './transcode/open-transcoder.js';
export { openTranscodeClient, type TranscodeClient } from './transcode/transcode-client.js';
