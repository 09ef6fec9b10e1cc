/**
 * Media providers: what turns a playlist item into something a browser can play. The room
 * actor stores an item's `provider` name and never interprets it; gateways look the name up
 * in the `ProviderRegistry` when a member asks how to play the item, and the media proxy asks
 * the provider where the bytes really are (`resolve`). A third-party provider (Alist, Emby,
 * Jellyfin, ...) is one more object implementing `MediaProvider`, registered at start; how to
 * write one: docs/2026-11-23-media-providers.md.
 */
import type { FieldIssue } from '../errors/index.js';
import type { MediaItem } from '../contracts/room/model.js';
import type { PlayInfo, SourceType } from '../contracts/http/media.js';

/**
 * How a client plays a source (file, hls, flv, dash, youtube), one way to play an item, and the
 * answer to "how do I play this item" for one member: the play endpoint's schemas
 * (contracts/http/media.ts), which every provider answers in. A source's `headers` are for
 * unproxied items only (a browser cannot set most of them on a media element, which is why
 * providers with headers usually need the proxy).
 */
export type { PlayInfo, PlaySource, SourceType } from '../contracts/http/media.js';

/**
 * Where the bytes of an item are, as the proxy fetches them. Only `headers` go upstream: never
 * the client's cookies or tokens.
 */
export interface Upstream {
  url: string;
  headers: Record<string, string>;
  type: SourceType;
  /**
   * Stable identity of the upstream resource, the slice cache's key: for a link that expires
   * and changes (a signed CDN URL) it must stay the same across re-resolutions.
   */
  identity: string;
  /** When `url` stops working (ms since the epoch), if the provider knows; the proxy re-resolves before it. */
  expiresAt?: number;
  /**
   * A URL prefix ending in "/" that everything the item names must stay under: a library's root
   * folder (the `library` provider). When set, the proxy refuses (`forbidden`) a playlist's
   * segment, key or variant, or a manifest's folder, outside it, and sends `headers` only inside
   * it (across redirects too). Unset, `headers` go to `url`'s origin only and a playlist may name
   * anything the address policy allows.
   */
  scope?: string;
}

/**
 * A subtitle stream the provider's source serves beside the media (a library server's external
 * and embedded text tracks): this server fetches it with `headers` and hands it to players as
 * one of the item's tracks (media/subtitles/subtitle-tracks.ts).
 */
export interface ProvidedSubtitle {
  name: string;
  language?: string;
  url: string;
  headers: Record<string, string>;
}

/** Whether an item's bytes go through the media proxy. */
export type ProxyPolicy =
  /** Always: the upstream needs headers or credentials a browser cannot send. */
  | 'required'
  /** The item's `proxy` switch decides. */
  | 'optional'
  /** Never: this service serves the bytes itself (livestreams) or the client must go direct. */
  | 'never';

export interface ResolveOptions {
  /** Set after the upstream refused the last resolution (401/403/410) or it is about to expire. */
  refresh: boolean;
  signal: AbortSignal;
  /** The room the item is played in: a provider whose items are bound to a room (`library`) checks it. */
  roomId: string;
}

/** What a provider that serves the bytes itself (`play`) gets to build signed URLs for one member. */
export interface PlayContext {
  roomId: string;
  userId: string;
  /** Signs a grant (media-grant.ts) for this member, item and `resource`; the token goes in the URL. */
  grant(resource: string): { token: string; expiresAt: number };
}

export interface MediaProvider {
  /** The name stored in playlist items (`[a-z][a-z0-9_-]{0,31}`). */
  readonly name: string;
  /** Shown in the web client's provider choice. */
  readonly label: string;
  readonly proxy: ProxyPolicy;
  /** Items of this provider are livestreams (no seeking, no duration). */
  readonly live: boolean;
  /**
   * How the room learns whether an item can seek (media/seek-probe.ts): `probe` (the default)
   * asks the resolved upstream for one byte with a Range request; `always` for sources that
   * seek by their nature (HLS video on demand); `never` for those that cannot. Livestreams
   * never seek, whatever this says.
   */
  readonly seeking?: 'probe' | 'always' | 'never';
  /** Checks an item's `url` and `headers` for this provider when it is added or edited in the room `roomId`. */
  check?(fields: { url: string; headers: Record<string, string>; roomId?: string }): FieldIssue[];
  /** Where an item starts when made current (seconds; a link's start time). Synchronous and cheap, like `check`. */
  startOf?(url: string): number;
  /**
   * Items play in a third party's embedded player: the web client loads `script` and frames
   * `frameOrigin`, and the content security policy admits exactly those.
   */
  readonly embed?: { script: string; frameOrigin: string };
  /** Where the bytes are now. Called again with `refresh` when the last answer stopped working. */
  resolve(item: MediaItem, options: ResolveOptions): Promise<Upstream>;
  /**
   * For sources that convert media themselves (a Jellyfin or Emby library set to `transcoder:
   * server`): the URL of the source's HLS master playlist of the item in codecs browsers take,
   * one per room and item so that every member reads the same conversion; null when this item's
   * source leaves conversion to this service. Asked only for items whose reach is not `direct`
   * (media/play-info.ts), which then never go to this service's transcoder. The URL and all it
   * names must lie inside `resolve`'s `scope`: the proxy reads them with `resolve`'s headers.
   */
  sourceTranscode?(item: MediaItem, options: Omit<ResolveOptions, 'refresh'>): Promise<string | null>;
  /**
   * Asked each time a remembered answer of `resolve` is used again (media/proxy/resolutions.ts):
   * throws when the item may no longer be read in `roomId` (a library whose owner left the room),
   * so a remembered answer does not outlive the right to it. Answers from memory for a few seconds.
   */
  readableIn?(item: MediaItem, roomId: string): Promise<void>;
  /**
   * For providers whose bytes this service serves itself (livestreams): the sources for one
   * member. Without it, the play endpoint builds them from `resolve` and the proxy policy.
   */
  play?(item: MediaItem, context: PlayContext): Promise<PlayInfo>;
  /** The subtitle streams its source offers for an item played in `roomId` (Jellyfin's and Emby's); none when absent. */
  subtitles?(item: MediaItem, options: { signal: AbortSignal; roomId: string }): Promise<ProvidedSubtitle[]>;
}
