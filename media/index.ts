/**
 * The public surface of media/: what code outside media/ may import (lint refuses a deeper
 * import; tests may reach inside). docs/2026-11-29-public-surfaces.md.
 */
export { SliceCache } from './cache/slice-cache.js';
export { isSlicePieces, type SliceCacheApi, type SliceCacheStats } from './cache/types.js';
export { writePieces } from './cache/write-pieces.js';
export { createMediaLibraries } from './libraries/create.js';
export { type LibraryStanding, type MediaLibraries, type OpenLibrary } from './libraries/libraries.js';
export { type LibraryRecord } from './libraries/library-store.js';
export { LibraryUpstreamBudget } from './libraries/upstream-budget.js';
export { RTMP_APP, publishUrls } from './live/publish-url.js';
export { StreamKeys, type KeyHolding, type StreamTarget } from './live/stream-keys.js';
export { type MediaGrant, type MediaGrants } from './media-grant.js';
export { createMediaServices, type MediaServices } from './media-services.js';
export { isProxied, playInfoFor } from './play-info.js';
export { LibraryProvider } from './providers/library.js';
export { LIVE_RESOURCE, liveProvider } from './providers/live.js';
export { MediaProxy, type ProxyTraffic } from './proxy/media-proxy.js';
export { fileNameOf, proxyUrl } from './proxy/proxy-url.js';
export { upstreamReadKey } from './read-key.js';
export { UpstreamSeekProbe } from './seek-probe.js';
export { SubtitleFiles } from './subtitles/subtitle-files.js';
export { SubtitleTextError } from './subtitles/subtitle-text.js';
export { SubtitleTracks, type EmbeddedSource, type ProvidedSource } from './subtitles/subtitle-tracks.js';
export { mediaToolMetrics } from './tools/tool-metrics.js';
export { masterPlaylistOf, rungPlaylistOf, TRANSCODE_RESOURCE, transcodeRungs } from './transcode/ladder.js';
export { openTranscodeClient, type TranscodeClient } from './transcode/transcode-client.js';
export { type ToolSource } from './tools/proxied-read.js';
export { type AudioProfile, type HdrFormat, type MediaProfile, type SubtitleProfile, type VideoProfile } from './transcode/media-profile.js';
export { probeMedia } from './transcode/probe.js';
export { ladderOf, playedAudio, reachOf, type ReachOptions } from './transcode/reach.js';
export { aacCodecString, avcCodecOfInit, avcCodecString } from './transcode/codec-strings.js';
export { planRung, VIDEO_RUNGS, type RungPlan, type RungRequest, type SourceFacts, type TranscodeSource } from './transcode/encode-plan.js';
export { masterPlaylist, mediaPlaylist, type MediaPlaylistInput, type PlaylistVariant } from './transcode/hls-playlists.js';
export { detectH264Encoder, hasZscale, softwareEncoder, type H264Encoder } from './transcode/hw-encoders.js';
export { RungEncoder, type RungEncoderEvents, type RungEncoderOptions } from './transcode/rung-encoder.js';
export { RungShelf, SegmentStore, type SegmentStoreCounts, type SegmentStoreOptions } from './transcode/segment-store.js';
export { COPIED_SEGMENT_SECONDS, CONVERTED_SEGMENT_SECONDS, segmentAt, segmentCount, segmentLength, segmentSecondsFor, segmentStart } from './transcode/timeline.js';
