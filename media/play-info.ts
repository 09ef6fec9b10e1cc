/**
 * How one member plays one item (`GET /api/rooms/{roomId}/playlist/{mediaId}/play`). A
 * provider that serves the bytes itself (livestreams) answers on its own (`play`). Otherwise
 * the provider's proxy policy and the item's switch decide: unproxied, the member gets the
 * upstream URL and the headers it must send; proxied, a signed `/media/proxy/...` URL for this
 * member, session and item that works until the grant expires or the session ends, and only while the operator's switch
 * (`proxy.movieProxy`, or `proxy.liveProxy` for live items) is on. An item browsers cannot play
 * as it is goes through a transcode: its source's own when the source converts media itself (a
 * Jellyfin or Emby library set to), else this service's shared one.
 */
import type { MediaItem } from '../contracts/room/model.js';
import type { SettingsReader } from '../settings/index.js';
import { requireProxySwitch } from '../actors/client.js';
import { AppError, isAppError } from '../errors/index.js';
import type { BurnableSubtitle, PlayTranscode } from '../contracts/http/media.js';
import type { MediaGrants } from './media-grant.js';
import type { MediaProvider, PlayInfo } from './provider.js';
import { fileNameOf, proxyUrl } from './proxy/proxy-url.js';
import type { Resolutions } from './proxy/resolutions.js';
import { burnableOf, masterName } from './transcode/burn.js';
import { TRANSCODE_RESOURCE, transcodeRungs, transcodeUrl } from './transcode/ladder.js';
import type { TranscodeClient } from './transcode/transcode-client.js';

export interface PlayInfoDeps {
  grants: MediaGrants;
  resolutions: Resolutions;
  settings: SettingsReader;
  /** How long a signed URL works. */
  grantTtlMs: number;
  /** The transcoder pool, when the service has NATS (every replica does; tests may not). */
  transcode?: TranscodeClient;
  now?: () => number;
}

/** Signs a grant for this member, item and `resource`. */
type Grant = (resource: string) => { token: string; expiresAt: number };

/** Whether an item's bytes go through the proxy, by its provider's policy and its own switch. */
export function isProxied(provider: MediaProvider, item: MediaItem): boolean {
  return provider.proxy === 'required' || (provider.proxy === 'optional' && item.proxy);
}

/** `holder`: the member's subject (user id, or a guest's id) and the session asking. */
export async function playInfoFor(
  deps: PlayInfoDeps,
  roomId: string,
  holder: { userId: string; sessionId: string },
  item: MediaItem,
  provider: MediaProvider,
  /**
   * `original`: the item's own source even where browsers need a transcode (a desktop player
   * decodes it). `current`: the item is the one the room plays now (the room has moved on from
   * its other items, so a transcoder may give their encoders up for it).
   */
  options: { original?: boolean; current?: boolean } = {},
): Promise<PlayInfo> {
  const now = (deps.now ?? Date.now)();
  const { userId, sessionId } = holder;
  const grant: Grant = (resource) => {
    const expiresAt = now + deps.grantTtlMs;
    return { token: deps.grants.sign({ roomId, userId, sessionId, mediaId: item.id, resource, expiresAt }), expiresAt };
  };
  if (provider.play) return provider.play(item, { roomId, userId, grant });
  if (options.original) return sourcesAsIs(deps, roomId, item, provider, grant);

  const bySource = await sourceTranscodeFor(deps, roomId, item, provider, grant);
  if (bySource) return bySource;
  const transcode = await transcodeFor(deps, roomId, item, options.current === true);
  if (transcode && transcode.refused === undefined) {
    const { token, expiresAt } = grant(TRANSCODE_RESOURCE);
    // The burned variants are read under the same grant (media/transcode/burn.ts).
    const burnable: BurnableSubtitle[] = (item.reach ? burnableOf(item.reach) : []).map((stream) => ({ ...stream, url: transcodeUrl(token, masterName(stream.index)) }));
    return {
      sources: [{ url: transcodeUrl(token, masterName(undefined)), type: 'hls' }],
      subtitles: item.subtitles,
      live: false,
      proxied: true,
      expiresAt,
      transcode: burnable.length > 0 ? { ...transcode, burnable } : transcode,
    };
  }
  const asIs = await sourcesAsIs(deps, roomId, item, provider, grant);
  return transcode ? { ...asIs, transcode } : asIs;
}

/** How long the source may take to say where its transcode is (one item lookup on a library server). */
const SOURCE_TRANSCODE_TIMEOUT_MS = 15_000;

/**
 * The source's own transcode, when it converts the item itself (`MediaProvider.sourceTranscode`):
 * its master playlist through the proxy, signed as a resource of the item the way a playlist's
 * variants are, so the proxy reads it, and the variants and segments it names, inside the item's
 * scope with the item's headers. Such an item never reaches this service's transcoder.
 */
async function sourceTranscodeFor(deps: PlayInfoDeps, roomId: string, item: MediaItem, provider: MediaProvider, grant: Grant): Promise<PlayInfo | undefined> {
  const reach = item.reach;
  if (!provider.sourceTranscode || !reach || reach.how === 'direct') return undefined;
  const master = await provider.sourceTranscode(item, { roomId, signal: AbortSignal.timeout(SOURCE_TRANSCODE_TIMEOUT_MS) });
  if (master === null) return undefined;
  requireProxySwitch(deps.settings, item);
  const { token, expiresAt } = grant(master);
  const transcode: PlayTranscode = { how: reach.how, heights: reach.height === null ? [] : [reach.height], by: 'server' };
  return { sources: [{ url: proxyUrl(token, 'master.m3u8'), type: 'hls' }], subtitles: item.subtitles, live: false, proxied: true, expiresAt, transcode };
}

/**
 * Whether the item plays through the shared transcode: it needs one (its reach), the server may
 * read media (`proxy.movieProxy`), and a transcoder admits it now. Refused, the item plays as it
 * is and the answer says why (a browser may still play some of it: the picture of a file whose
 * audio it cannot decode). Admitted, the answer also lists the picture subtitles a player may
 * have burned in (each a master playlist of its own, admitted like any job when first read).
 */
async function transcodeFor(deps: PlayInfoDeps, roomId: string, item: MediaItem, current: boolean): Promise<PlayTranscode | undefined> {
  const reach = item.reach;
  if (!reach || reach.how === 'direct' || !deps.transcode) return undefined;
  const answer: PlayTranscode = { how: reach.how, heights: reach.videoTreatment === 'convert' ? reach.heights : reach.height === null ? [] : [reach.height] };
  try {
    requireProxySwitch(deps.settings, item);
    if (reach.durationSeconds === null) throw new AppError('failed_precondition', 'the media does not say how long it is, so it cannot be converted on a fixed timeline');
    await deps.transcode.admit(roomId, item, transcodeRungs(reach)[0] ?? 0, current);
    return answer;
  } catch (err) {
    if (!isAppError(err)) throw err;
    return { ...answer, refused: err.message };
  }
}

async function sourcesAsIs(deps: PlayInfoDeps, roomId: string, item: MediaItem, provider: MediaProvider, grant: Grant): Promise<PlayInfo> {
  const upstream = await deps.resolutions.get(roomId, item, provider);
  const live = item.live || provider.live;
  if (!isProxied(provider, item)) {
    const headers = Object.keys(upstream.headers).length > 0 ? { headers: upstream.headers } : {};
    return {
      sources: [{ url: upstream.url, type: upstream.type, ...headers }],
      subtitles: item.subtitles,
      live,
      proxied: false,
      expiresAt: upstream.expiresAt ?? null,
    };
  }
  requireProxySwitch(deps.settings, item);
  const { token, expiresAt } = grant('');
  const name = upstream.type === 'hls' ? 'index.m3u8' : upstream.type === 'dash' ? 'manifest.mpd' : fileNameOf(upstream.url);
  return { sources: [{ url: proxyUrl(token, name), type: upstream.type }], subtitles: item.subtitles, live, proxied: true, expiresAt };
}
