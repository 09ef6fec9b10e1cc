/**
 * The synchronized player of a room: a <video> element for the current playlist item (or, for a
 * YouTube item, YouTube's embedded player in its place), kept in step with the room by
 * PlayerSync (player-sync.ts), with controls, a status line, and a "Click to join playback"
 * overlay when the browser refuses to play without a gesture. An item played through the
 * server's shared transcode gets a line saying so (transcode-note.tsx), and a quality menu when
 * it has several rungs (quality-menu.tsx): both follow what sources.ts reports as playing. A
 * picture subtitle chosen in the subtitle menu (player/subtitles/burn.ts) loads the item again
 * from its burned master; the choice is forgotten when the item changes. Picture-in-picture (alone
 * or with the chat) and casting are buttons of the controls (screen-buttons.tsx); while the video
 * is in the window with the chat, or cast to another screen, the frame says where it plays. The
 * screen stays on while the room plays (player/wake-lock.ts).
 */
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { MediaItem, NowPlaying } from '../../../../../contracts/room/model.js';
import type { RoomSession } from '../../../state/room.js';
import { Controls } from './controls.js';
import { PlayerSync } from '../../../player/player-sync.js';
import { VideoPlayer } from '../../../player/players/video-player.js';
import { explainMediaError } from '../../../player/media-error.js';
import { loadSource, type Embedder, type Playing } from '../../../player/sources.js';
import { YouTubePlayer } from '../../../player/players/youtube-player.js';
import { videoIdOf } from '../../../player/players/youtube-api.js';
import { loadMediaProviders } from '../../../state/media-providers.js';
import { LocalFileRequest } from '../../../player/local-file.js';
import { LocalFilePicker } from './local-file-picker.js';
import { SeekableNote } from '../seekable-note.js';
import { useElementCannotSeek } from '../../../player/use-element-cannot-seek.js';
import { statusText, type LastChange } from '../../../player/status.js';
import { useSubtitles } from '../../../player/subtitles/use-subtitles.js';
import { burnChoice, burnFor, forgetBurnUnless, type BurnableSubtitle } from '../../../player/subtitles/burn.js';
import { SubtitleMenu } from './subtitle-menu.js';
import { QualityMenu } from './quality-menu.js';
import { TranscodeNote } from './transcode-note.js';
import { ReactionBurst, ReactionButton } from '../reactions/reaction-burst.js';
import { DanmakuBar } from '../danmaku/danmaku-bar.js';
import { DanmakuLayer } from '../danmaku/danmaku-layer.js';
import { CastButton, PipButton, PipChatButton } from './screen-buttons.js';
import { useRemoteScreen } from '../../../player/use-remote-screen.js';
import { useWakeLock } from '../../../player/wake-lock.js';
import { useT } from '../../../i18n/use-t.js';
import './player.css';

/** How often the controls show the element's time (display only: sync never reads it). */
const DISPLAY_MS = 250;

export function Player(props: { room: RoomSession }) {
  const t = useT();
  const { room } = props;
  const frame = useRef<HTMLDivElement>(null);
  const videoRef = useRef<HTMLVideoElement>(null);
  const embedRef = useRef<HTMLDivElement>(null);
  const [sync, setSync] = useState<PlayerSync | null>(null);
  /** An embedded player shows the item instead of the <video> element. */
  const [embedded, setEmbedded] = useState(false);
  // A file on each viewer's own disk: the loader waits on this for the viewer's copy.
  const localFile = useMemo(() => new LocalFileRequest(), []);
  /** The element's loads, in turn (see the load effect). */
  const loads = useRef<Promise<void>>(Promise.resolve());
  const [loadError, setLoadError] = useState<string | null>(null);
  /** What the loaded sources play: the transcode and the quality rungs (none until they attach). */
  const [playing, setPlaying] = useState<Playing | null>(null);
  const [last, setLast] = useState<LastChange | null>(null);
  const [display, setDisplay] = useState({ position: 0, duration: 0, volume: 1, muted: false });
  const view = room.view.value;
  const mediaId = view?.playback.mediaId ?? null;
  // The playlist's entry when this member may see the list (it has the source, so an edit of it
  // reloads); else what the room says is playing, which every member may watch.
  const entry: MediaItem | undefined = view?.playlist?.find((candidate) => candidate.id === mediaId);
  // (The fields both have: the reach is read from each below.)
  const item: Omit<NowPlaying, 'reachHow'> | null = entry ?? view?.playback.item ?? null;
  // A picture subtitle burned in: of this item only, forgotten when another plays.
  const burn = burnFor(burnChoice.value, item?.id ?? null);
  useEffect(() => forgetBurnUnless(item?.id ?? null), [item?.id]);
  /** The item's burnable picture subtitles, as its last load was told (kept while a switch reloads). */
  const [burnable, setBurnable] = useState<{ mediaId: string; streams: BurnableSubtitle[] } | null>(null);
  const subtitles = useSubtitles(room.roomId, item, sync ? videoRef.current : null, burn !== null);
  const video = sync ? videoRef.current : null;
  const remote = useRemoteScreen(video);
  /** The video is in the picture-in-picture window with the chat. */
  const [popped, setPopped] = useState(false);
  useWakeLock(view?.playback.playing === true && mediaId !== null);

  // The <video> element exists once the room's view has arrived: the sync starts with it.
  const opened = view !== null;
  useEffect(() => {
    const video = videoRef.current;
    if (!video) return;
    const created = new PlayerSync(new VideoPlayer(video), room);
    created.start();
    setSync(created);
    const stopEvents = room.onEvent((event) => {
      if (event.type === 'playback') setLast({ cause: event.cause, by: event.by });
    });
    const timer = setInterval(() => {
      const player = created.player;
      setDisplay({ position: player.currentTime, duration: player.duration ?? 0, volume: player.volume, muted: player.muted });
    }, DISPLAY_MS);
    return () => {
      clearInterval(timer);
      stopEvents();
      created.stop();
      setSync(null);
    };
  }, [room, opened]);

  // A livestream of this server is loaded again when it goes on or off air: a player that
  // loaded it while offline got a 404 and would otherwise never start.
  const onAir = item?.provider === 'live' && (view?.liveOnline ?? []).includes(item.id);
  // Load the current item when it changes (by id, url, provider or proxy; an edit of its title
  // does not reload), and when its probe answers: an item cued as it was added loaded before the
  // room knew it needs the shared transcode.
  const reachHow = entry ? (entry.reach?.how ?? null) : (view?.playback.item?.reachHow ?? null);
  const itemKey = item ? `${item.id}|${entry?.url}|${item.provider}|${item.live}|${entry?.proxy}|${JSON.stringify(entry?.headers)}|${onAir}|${reachHow ?? ''}` : '';
  const elementCannotSeek = useElementCannotSeek(videoRef, itemKey);
  useEffect(() => {
    const video = videoRef.current;
    if (!video || !sync) return;
    setLoadError(null);
    setPlaying(null);
    if (!item) {
      sync.setMedia(null, false);
      return;
    }
    let detach: (() => void) | null = null;
    let cancelled = false;
    const aborted = new AbortController();
    sync.setMedia(null, item.live);
    // An offline livestream has nothing to load (it would answer 404): wait for it to come on air.
    if (item.provider === 'live' && !onAir) return;
    const elementPlayer = sync.player;
    // A YouTube item: its player takes the element's place, and the sync drives it until the item changes.
    const embed: Embedder = async (source, failed) => {
      const youtube = (await loadMediaProviders()).providers.find((provider) => provider.name === 'youtube')?.embed;
      const host = embedRef.current;
      if (!youtube || !host) throw new Error(t('player.sources.noYouTube'));
      const player = await YouTubePlayer.create(host, youtube, videoIdOf(source.url), failed);
      if (cancelled) {
        player.destroy();
        return () => undefined;
      }
      sync.setPlayer(player);
      setEmbedded(true);
      return () => {
        sync.setPlayer(elementPlayer);
        player.destroy();
        setEmbedded(false);
      };
    };
    // Loads run one after another on the element: a load cancelled while it attached releases
    // what it attached (its detach resets the element) before the next one attaches.
    loads.current = loads.current.then(async () => {
      if (cancelled) return;
      try {
        const release = await loadSource(
          video,
          item,
          room.roomId,
          (message) => !cancelled && setLoadError(message),
          embed,
          (ref) => localFile.request(ref, aborted.signal),
          (now) => {
            if (cancelled) return;
            setPlaying(now);
            setBurnable({ mediaId: item.id, streams: now.transcode && now.transcode.refused === undefined ? (now.transcode.burnable ?? []) : [] });
          },
          burn,
          () => sync.roomPosition(item.id),
        );
        if (cancelled) return release();
        detach = release;
        sync.setMedia(item.id, item.live);
      } catch (error) {
        if (!cancelled) setLoadError(error instanceof Error ? error.message : String(error));
      }
    });
    return () => {
      cancelled = true;
      aborted.abort();
      detach?.();
      setPlaying(null);
    };
  }, [sync, itemKey, burn]); // itemKey stands for the fields of item that matter

  if (!view) {
    const connection = room.connection.status.value;
    return (
      <section class="player" aria-label={t('player.label')}>
        <p class="player-status" role="status" aria-live="polite">
          {connection.state === 'ended' ? t('player.couldNotOpen', { reason: connection.reason }) : t('player.connecting')}
        </p>
      </section>
    );
  }
  if (sync) sync.seekable = item?.seekable ?? null;
  // The browser's own word counts where the server could not check (a LAN or loopback source).
  const seekable = item && elementCannotSeek ? 'no' : (item?.seekable ?? null);
  const blocked = sync?.blocked.value === true && view.playback.playing;
  const status = statusText(view, room.connection.status.value, last);

  return (
    <section class="player" aria-label={t('player.label')}>
      <div class={embedded ? 'player-frame is-embedded' : 'player-frame'} ref={frame}>
        <div class="player-embed" ref={embedRef} />
        <video
          ref={videoRef}
          class="player-video"
          playsInline
          preload="auto"
          aria-label={item ? t('player.videoOf', { title: item.title }) : t('player.video')}
          onError={(event) => item && void explainMediaError(event.currentTarget).then(setLoadError)}
          // A source loaded again after a network error (PlayerSync.recoverMedia) plays: the error is over.
          onLoadedData={() => setLoadError(null)}
        >
        </video>
        <DanmakuLayer room={room} sync={sync} mediaId={item?.id ?? null} />
        <ReactionBurst session={room} />
        {!item && <p class="player-empty">{t('player.nothingPlaying')}</p>}
        {item && remote?.state.value === 'connected' && <p class="player-empty player-elsewhere">{t('player.screens.onOtherScreen')}</p>}
        {item && popped && <p class="player-empty player-elsewhere">{t('player.screens.inPipWindow')}</p>}
        {item?.provider === 'live' && !onAir && <p class="player-empty">{t('player.liveOffline')}</p>}
        {blocked && (
          <div class="player-overlay">
            <button type="button" class="button-primary player-join" onClick={() => sync?.join()}>
              {t('player.joinPlayback')}
            </button>
          </div>
        )}
      </div>
      <p class="player-status" role="status" aria-live="polite">
        {item && <span class="player-title">{t('player.titleLead', { title: item.title })}</span>}
        {status}
      </p>
      <DanmakuBar room={room} sync={sync} mediaId={item?.id ?? null} />
      <LocalFilePicker request={localFile} room={room} mediaId={item?.id ?? null} />
      {item && seekable && <SeekableNote item={{ live: item.live, seekable }} where="player" />}
      <TranscodeNote transcode={playing?.transcode ?? null} quality={playing?.quality ?? null} />
      {subtitles.problem && <p class="notice">{subtitles.problem}</p>}
      {loadError && (
        <div class="notice notice-error" role="alert">
          <p>{loadError}</p>
        </div>
      )}
      {sync && (
        <Controls
          room={room}
          sync={sync}
          player={sync.player}
          position={display.position}
          duration={display.duration}
          volume={display.volume}
          muted={display.muted}
          live={item?.live ?? false}
          onFullscreen={() => void frame.current?.requestFullscreen?.().catch(() => undefined)}
          extra={
            <>
              <ReactionButton session={room} />
              <QualityMenu control={playing?.quality ?? null} />
              <SubtitleMenu state={subtitles} mediaId={item?.id ?? null} burnable={burnable !== null && burnable.mediaId === item?.id ? burnable.streams : []} />
              <PipButton video={embedded ? null : video} />
              <PipChatButton video={embedded ? null : video} room={room} open={popped} onOpen={setPopped} />
              <CastButton screen={embedded ? null : remote} sync={sync} mediaId={item?.id ?? null} />
            </>
          }
        />
      )}
    </section>
  );
}
