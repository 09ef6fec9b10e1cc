/**
 * How a playlist item gets into the <video> element. The server says how to play it
 * (`GET /api/rooms/{roomId}/playlist/{mediaId}/play`): upstream URLs, or signed URLs of its
 * media proxy, each with a type. A `file` plays natively, `hls` through hls.js where the browser
 * has Media Source Extensions (else natively: iPhone Safari), `flv` through mpegts.js, `dash` through dash.js; a
 * `youtube` source plays in YouTube's embedded player instead of the element (`Embedder`). Sources are tried in the server's
 * order and one this browser cannot play is skipped: a livestream offers FLV first, which needs
 * MSE, and HLS after it for browsers without (iPhone Safari plays HLS natively). The element's
 * `data-source-type` names the type in use. A file on each viewer's own disk (the `local`
 * provider) has no source: the server names the file, the viewer picks their copy (`pickLocal`,
 * local-file.ts) and it plays from a blob URL (`data-source-type` "local"). The libraries are imported
 * dynamically, only when an item needs them, so they stay out of the initial bundle. Signed
 * URLs expire: the sources are asked again a minute before, and swapped in at the same time.
 *
 * An item browsers cannot decode plays through the server's shared transcode: one `hls` source
 * (a master playlist, one variant per rung when the video is converted) and `transcode` saying
 * what was converted, or why nothing could be (`refused`; the sources then play it as it is).
 * Each time sources attach (a renewal attaches anew) the player view is told what plays
 * (`Playing`): the transcode, and the quality rungs when hls.js plays (hls-quality.ts; the
 * viewer's remembered choice, quality.ts, is where it starts). Safari's own HLS has no level
 * API, so there it has none. `data-quality` on the element is the height playing.
 *
 * A picture subtitle the viewer chose to see burned in (subtitles/burn.ts) plays from its own
 * master playlist (PlayInfo.transcode.burnable) in place of the sources, renewals included;
 * `data-burned` on the element is its stream index while it plays. Switching is a new load of
 * the item: the room's sync seeks the new source to where the room is.
 */
import type { NowPlaying } from '../../../contracts/room/model.js';
import { api, call } from '../api/client.js';
import type { Schemas } from '../api/types.js';
import type { LocalFileRef } from './local-file.js';
import { t } from '../i18n/i18n.js';
import { HlsQuality } from './hls-quality.js';
import { recordSource, sourceStatsOn } from './debug-stats.js';
import { restartWhenStuck } from './hls-restart.js';
import { storedQuality, type QualityControl } from './quality.js';
import { sourcesFor } from './subtitles/burn.js';

/** Detaches the source from the element and frees what the loader holds. */
export type Detach = () => void;

type PlayInfo = Schemas['PlayInfo'];
type PlaySource = PlayInfo['sources'][number];
export type PlayTranscode = Schemas['PlayTranscode'];

/** What plays now, told to the player view each time sources attach. */
export interface Playing {
  /** What the server's shared transcode does to the item; null when it plays as it is. */
  transcode: PlayTranscode | null;
  /** The rungs the viewer may choose between; null where the player has no level API. */
  quality: QualityControl | null;
  /** The picture subtitle stream burned into what plays; null: none. */
  burned: number | null;
}
export type OnPlaying = (playing: Playing) => void;

/** Tells the player why a source that attached stopped loading (the element's own errors aside). */
type OnFailure = (message: string) => void;
/** What a loader attached: how to take it off, and its quality rungs (hls.js only). */
interface Attached {
  detach: Detach;
  quality?: QualityControl;
}
/** Where the room is in the media now (seconds), when known: a player that loads by segments starts there. */
export type StartAt = () => number | undefined;
type SourceLoader = (video: HTMLVideoElement, source: PlaySource, live: boolean, failed: OnFailure, startAt: StartAt) => Promise<Attached>;
/** Plays a source in an embedded player rather than the element (the player view builds it and swaps the sync over). */
export type Embedder = (source: PlaySource, failed: OnFailure) => Promise<Detach>;

/** Resolves with the viewer's copy of a file on their own disk once they picked a matching one. */
export type PickLocal = (ref: LocalFileRef) => Promise<File>;

/** Ask for new URLs this long before the old ones stop working. */
const RENEW_BEFORE_MS = 60_000;
/**
 * A live FLV stream with no frame to show this long after it was opened is opened again with a
 * new player, each time waiting twice as long: a connection that brings nothing would otherwise
 * leave "Playing" over a black picture for good (docs/2026-11-23-livestreams.md, 2026-11-27).
 */
const FLV_FIRST_FRAME_MS = 10_000;

const file: SourceLoader = (video, source) => {
  video.src = source.url;
  return Promise.resolve({
    detach: () => {
      video.removeAttribute('src');
      video.load();
    },
  });
};

/**
 * hls.js wherever Media Source Extensions are (it offers the quality levels, and plays alike in
 * every browser); the browser's own HLS only without them (iPhone Safari). A VOD starts loading
 * where the room is: the shared transcode's encoder then starts there too, not at 0; one that shows
 * no picture for a while is told to load again from there (hls-restart.ts).
 */
const hls: SourceLoader = async (video, source, live, failed, startAt) => {
  const { default: Hls } = await import('hls.js').catch(() => ({ default: undefined }));
  if (!Hls?.isSupported()) {
    if (video.canPlayType('application/vnd.apple.mpegurl')) return file(video, source, live, failed, startAt);
    throw new Error(t('player.sources.noHls'));
  }
  const startPosition = live ? undefined : startAt();
  const player = new Hls({ lowLatencyMode: live, ...(startPosition !== undefined ? { startPosition } : {}) });
  player.on(Hls.Events.ERROR, (_event, data) => {
    recordSource('hls error', `${data.details}${data.fatal ? ' fatal' : ''} ${data.frag ? `${data.frag.level}/${data.frag.sn}` : ''} ${data.response?.code ?? ''} ${data.error?.message ?? ''}`);
    if (data.fatal) failed(t('player.sources.streamFailed', { details: data.details }));
  });
  recordHlsSteps(player, Hls.Events);
  const quality = new HlsQuality(player);
  player.on(Hls.Events.ERROR, () => quality.erred());
  player.on(Hls.Events.MANIFEST_PARSED, () => quality.start(storedQuality()));
  player.on(Hls.Events.LEVEL_SWITCHED, (_event, data) => quality.switched(data.level));
  quality.onChange(() => {
    if (quality.current !== null) video.dataset.quality = String(quality.current);
  });
  player.loadSource(source.url);
  player.attachMedia(video);
  const restartable = {
    stopLoad: () => player.stopLoad(),
    startLoad: (from: number) => {
      recordSource('hls restart', String(from));
      player.startLoad(from);
    },
  };
  const stopWatch = live ? () => undefined : restartWhenStuck(video, restartable, startAt);
  return {
    detach: () => {
      stopWatch();
      delete video.dataset.quality;
      player.destroy();
    },
    quality,
  };
};

/** The hls.js steps a failure's story needs, while the debug stats are on (debug-stats.ts). */
function recordHlsSteps(player: import('hls.js').default, events: typeof import('hls.js').default.Events): void {
  if (!sourceStatsOn()) return;
  player.on(events.MANIFEST_PARSED, (_event, data) => recordSource('hls levels', data.levels.map((level) => `${level.height}p ${level.bitrate}`).join(', ')));
  player.on(events.MEDIA_ATTACHED, () => recordSource('hls media attached', ''));
  player.on(events.LEVEL_SWITCHING, (_event, data) => recordSource('hls level switching', String(data.level)));
  player.on(events.LEVEL_SWITCHED, (_event, data) => recordSource('hls level switched', String(data.level)));
  player.on(events.FRAG_LOADING, (_event, data) => recordSource('hls frag loading', `${data.frag.level}/${data.frag.sn} @${data.frag.start.toFixed(2)}`));
  player.on(events.FRAG_BUFFERED, (_event, data) => recordSource('hls frag buffered', `${data.frag.level}/${data.frag.sn}`));
  player.on(events.BUFFER_FLUSHING, (_event, data) => recordSource('hls flushing', `${data.startOffset.toFixed(2)}-${data.endOffset}`));
  player.on(events.BUFFER_RESET, () => recordSource('hls buffer reset', ''));
  player.on(events.BUFFER_CODECS, (_event, data) => recordSource('hls codecs', `video ${data.video?.codec} audio ${data.audio?.codec} muxed ${data.audiovideo?.codec}`));
}

const flv: SourceLoader = async (video, source, live, failed) => {
  const { default: mpegts } = await import('mpegts.js');
  if (!mpegts.isSupported()) throw new Error(t('player.sources.noFlv'));
  // The library logs to the console what it recovers from (a script tag cut short when a publisher
  // restarts is an "IllegalStateException" line, then the next tag plays); what it cannot recover
  // from comes as Events.ERROR below, which the player shows in words.
  mpegts.LoggingControl.applyConfig({ enableAll: false, enableDebug: false, enableVerbose: false, enableInfo: false, enableWarn: false, enableError: false });
  const open = (): ReturnType<typeof mpegts.createPlayer> => {
    const player = mpegts.createPlayer({ type: 'flv', isLive: live, url: source.url });
    // Without a listener mpegts.js throws its errors (a 404 of an ended stream) as unhandled.
    player.on(mpegts.Events.ERROR, (type: string, detail: string) => failed(t('player.sources.streamFailed', { details: `${type}: ${detail}` })));
    player.attachMediaElement(video);
    player.load();
    return player;
  };
  const close = (player: ReturnType<typeof mpegts.createPlayer>): void => {
    player.unload();
    player.detachMediaElement();
    player.destroy();
  };
  let player = open();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const reopenUnlessStarted = (afterMs: number): void => {
    timer = setTimeout(() => {
      if (video.readyState >= HTMLMediaElement.HAVE_CURRENT_DATA) return;
      // A new player on a new MediaSource: the element pauses, and the room's sync plays it
      // again if the room plays.
      close(player);
      player = open();
      reopenUnlessStarted(afterMs * 2);
    }, afterMs);
  };
  if (live) reopenUnlessStarted(FLV_FIRST_FRAME_MS);
  return {
    detach: () => {
      clearTimeout(timer);
      close(player);
    },
  };
};

const dash: SourceLoader = async (video, source, _live, failed) => {
  const dashjs = await import('dashjs');
  if (!dashjs.supportsMediaSource()) throw new Error(t('player.sources.noDash'));
  const player = dashjs.MediaPlayer().create();
  // dash.js logs every step to the console by default; what it cannot recover from comes as ERROR.
  player.updateSettings({ debug: { logLevel: dashjs.Debug.LOG_LEVEL_NONE } });
  player.on(dashjs.MediaPlayer.events.ERROR, (event) => {
    const error = 'error' in event ? event.error : undefined;
    const message = typeof error === 'object' && error !== null && 'message' in error ? String(error.message) : String(error ?? t('player.sources.unknown'));
    failed(t('player.sources.streamFailed', { details: message }));
  });
  // The sync decides when to play: dash.js must not start on its own.
  player.initialize(video, source.url, false);
  return { detach: () => player.destroy() };
};

const LOADERS: Record<Exclude<PlaySource['type'], 'youtube'>, SourceLoader> = { file, hls, flv, dash };

/** The viewer's own copy, played from a blob URL (freed when the item changes). */
async function attachLocal(video: HTMLVideoElement, ref: LocalFileRef, pickLocal: PickLocal | undefined): Promise<Detach> {
  if (!pickLocal) throw new Error(t('player.localFile.cannotAsk', { name: ref.name }));
  const copy = await pickLocal(ref);
  const url = URL.createObjectURL(copy);
  video.src = url;
  video.dataset.sourceType = 'local';
  return () => {
    delete video.dataset.sourceType;
    video.removeAttribute('src');
    video.load();
    URL.revokeObjectURL(url);
  };
}

function playInfo(roomId: string, mediaId: string): Promise<PlayInfo> {
  return call(api.GET('/api/rooms/{roomId}/playlist/{mediaId}/play', { params: { path: { roomId, mediaId } } }));
}

/**
 * Attaches the first of the sources this browser can play (the burned master instead, when
 * `burn` is offered), and tells what plays; throws why none could be.
 */
async function attachPlayable(video: HTMLVideoElement, info: PlayInfo, failed: OnFailure, embed: Embedder, played: OnPlaying, burn: number | null, startAt: StartAt): Promise<Detach> {
  let reason: unknown = new Error(t('player.sources.noWay'));
  const { sources, burned } = sourcesFor(info, burn);
  for (const source of sources) {
    try {
      const attached = source.type === 'youtube' ? { detach: await embed(source, failed) } : await LOADERS[source.type](video, source, info.live, failed, startAt);
      video.dataset.sourceType = source.type;
      if (burned !== null) video.dataset.burned = String(burned);
      played({ transcode: info.transcode ?? null, quality: attached.quality ?? null, burned });
      return () => {
        delete video.dataset.sourceType;
        delete video.dataset.burned;
        attached.detach();
      };
    } catch (error) {
      // This browser lacks what the source needs (or its library did not load): try the next.
      reason = error;
    }
  }
  throw reason;
}

export async function loadSource(
  video: HTMLVideoElement,
  item: Pick<NowPlaying, 'id'>,
  roomId: string,
  failed: OnFailure,
  embed: Embedder,
  pickLocal?: PickLocal,
  played: OnPlaying = () => undefined,
  burn: number | null = null,
  startAt: StartAt = () => undefined,
): Promise<Detach> {
  const info = await playInfo(roomId, item.id);
  // Nothing to renew: the copy is the viewer's own.
  if (info.local) return attachLocal(video, info.local, pickLocal);
  let detach = await attachPlayable(video, info, failed, embed, played, burn, startAt);
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;

  const schedule = (expiresAt: number | null): void => {
    if (expiresAt === null) return;
    timer = setTimeout(() => void renew(), Math.max(5_000, expiresAt - Date.now() - RENEW_BEFORE_MS));
  };
  const renew = async (): Promise<void> => {
    try {
      const next = await playInfo(roomId, item.id);
      if (stopped) return;
      const position = video.currentTime;
      const paused = video.paused;
      detach();
      detach = await attachPlayable(video, next, failed, embed, played, burn, () => position);
      if (!next.live) video.currentTime = position;
      if (!paused) await video.play().catch(() => undefined);
      schedule(next.expiresAt);
    } catch {
      // Try again shortly: the old URLs still work for a while.
      if (!stopped) timer = setTimeout(() => void renew(), 10_000);
    }
  };
  schedule(info.expiresAt);
  return () => {
    stopped = true;
    clearTimeout(timer);
    detach();
  };
}
