/**
 * The player's controls, laid over the bottom of the video and hidden while it plays until the
 * pointer moves or a key is pressed (use-auto-hide.ts). Members with `control_playback` steer the
 * room (play/pause, seek, rate; next/previous also need `set_current_media`): commands carry
 * `sentAt` (the server time estimate) and play/seek a `startInMs` lead so every member starts at
 * the same instant. Everyone has volume, mute, theatre and fullscreen, which stay local.
 * Fullscreen takes the whole player (video and these controls), not the bare <video>, so the
 * room's controls stay in reach there. The lock screen, a headset and the picture-in-picture
 * window steer the room through the same commands (player/use-media-session.ts).
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { RoomCommand } from '../../../../../contracts/room/commands.js';
import type { RoomSession } from '../../../state/room.js';
import { ApiError } from '../../../api/errors.js';
import { ErrorNotice } from '../../../ui/error-notice.js';
import { theatre, toggleTheatre } from '../view-mode.js';
import { Icon } from './icons.js';
import type { PlayerSync } from '../../../player/player-sync.js';
import type { MediaPlayer } from '../../../player/players/media-player.js';
import { usePlayerShortcuts } from '../../../player/shortcuts.js';
import { lockScreenHandlers } from '../../../player/media-session.js';
import { useMediaSession } from '../../../player/use-media-session.js';
import { clockText } from '../../../player/status.js';
import { useAutoHide } from '../../../ui/use-auto-hide.js';
import { useT } from '../../../i18n/use-t.js';
import { tvMode } from '../../../tv/tv-mode.js';

const RATES = [0.5, 0.75, 1, 1.25, 1.5, 2];
const TV_SEEK_STEP_S = 10;

export interface ControlsProps {
  room: RoomSession;
  sync: PlayerSync;
  player: MediaPlayer;
  position: number;
  duration: number;
  volume: number;
  muted: boolean;
  live: boolean;
  /** Used where the player container cannot go fullscreen itself. */
  onFullscreen(): void;
  /** More controls of the right-hand group (the subtitle menu). */
  extra?: ComponentChildren;
}

export function Controls(props: ControlsProps) {
  const t = useT();
  const { room, sync, player } = props;
  const root = useRef<HTMLDivElement>(null);
  const [error, setError] = useState<unknown>(null);
  const [dragging, setDragging] = useState<number | null>(null);
  const fullscreen = useFullscreen();
  const playback = room.view.value?.playback;
  const steer = room.can('control_playback');
  const skip = steer && room.can('set_current_media');
  const playing = playback?.playing ?? false;
  const hasMedia = (playback?.mediaId ?? null) !== null;
  const duration = Number.isFinite(props.duration) && props.duration > 0 ? props.duration : 0;
  const canSeek = steer && hasMedia && duration > 0 && !props.live;
  const shown = useAutoHide(root, playing);

  /** Sends a command; a refusal shows under the controls. Answers the command's answer. */
  const sendFor = (command: RoomCommand): Promise<unknown> => {
    setError(null);
    const sentAt = sync.serverNow();
    sync.sent(command.kind);
    const answer = room.send(command, sentAt === undefined ? {} : { sentAt });
    answer.catch(setError);
    return answer;
  };
  const send = (command: RoomCommand): void => void sendFor(command);
  const seekTo = (position: number): void => {
    setDragging(null);
    send({ kind: 'playback.seek', position, startInMs: sync.startInMs('seek') });
  };
  const play = (): void => send({ kind: 'playback.play', startInMs: sync.startInMs('play') });
  const pause = (): void => sync.pauseNow(sendFor({ kind: 'playback.pause', ...(!props.live ? { position: player.currentTime } : {}) }));
  const togglePlay = (): void => {
    if (!steer || !hasMedia) return;
    if (playing) pause();
    else play();
  };
  const toggleFullscreen = (): void => {
    const player = root.current?.closest<HTMLElement>('.player');
    if (document.fullscreenElement) void document.exitFullscreen().catch(() => undefined);
    else if (player?.requestFullscreen) void player.requestFullscreen().catch(() => undefined);
    else props.onFullscreen();
  };
  const toggleMute = (): void => {
    player.muted = !player.muted;
  };
  const seekBy = (seconds: number): void => {
    if (canSeek) seekTo(Math.min(Math.max(0, props.position + seconds), duration));
  };
  usePlayerShortcuts({
    togglePlay,
    seekBy,
    fullscreen: toggleFullscreen,
    theatre: toggleTheatre,
    mute: toggleMute,
  });
  useMediaSession({
    title: playback?.item?.title ?? null,
    roomName: room.view.value?.room.name ?? '',
    playback,
    duration: duration > 0 && !props.live ? duration : undefined,
    serverNow: () => sync.serverNow(),
    handlers: lockScreenHandlers(
      { steer, skip, seek: canSeek },
      {
        play,
        pause,
        seek: seekTo,
        next: () => send({ kind: 'playback.next' }),
        previous: () => send({ kind: 'playback.previous' }),
        refuse: () => setError(new ApiError({ requestId: '', status: 403, code: 'forbidden', message: t('player.screens.notAllowed') })),
      },
      () => props.position,
      () => duration,
    ),
  });
  const position = dragging ?? props.position;

  return (
    <div class={shown ? 'player-controls' : 'player-controls is-hidden'} ref={root}>
      <ErrorNotice error={error} onDismiss={() => setError(null)} />
      {!props.live && (
        <div class="player-seek">
          <span class="player-time" aria-hidden="true">
            {clockText(position)}
          </span>
          <input
            type="range"
            class="player-seekbar"
            aria-label={t('player.controls.seek')}
            aria-valuetext={t('player.controls.seekValue', { position: clockText(position), duration: clockText(duration) })}
            min={0}
            max={duration || 1}
            step={1}
            value={Math.min(position, duration || 1)}
            disabled={!canSeek}
            onInput={(event) => setDragging(Number((event.target as HTMLInputElement).value))}
            onChange={(event) => seekTo(Number((event.target as HTMLInputElement).value))}
            // A remote's left and right step 10 s, as TV players do, not the slider's 1 s.
            onKeyDown={(event) => {
              if (!tvMode.value || (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight')) return;
              event.preventDefault();
              seekBy(event.key === 'ArrowLeft' ? -TV_SEEK_STEP_S : TV_SEEK_STEP_S);
            }}
          />
          <span class="player-time" aria-hidden="true">
            {clockText(duration)}
          </span>
        </div>
      )}
      <div class="player-bar">
        <div class="player-group">
          {skip && (
            <button type="button" aria-label={t('player.controls.previous')} title={t('player.controls.previousTitle')} disabled={!hasMedia} onClick={() => send({ kind: 'playback.previous' })}>
              <Icon name="previous" />
            </button>
          )}
          {steer && (
            <button type="button" class="player-toggle" aria-label={playing ? t('player.controls.pause') : t('player.controls.play')}
              title={playing ? t('player.controls.pauseTitle') : t('player.controls.playTitle')} disabled={!hasMedia} onClick={togglePlay}>
              <Icon name={playing ? 'pause' : 'play'} />
            </button>
          )}
          {skip && (
            <button type="button" aria-label={t('player.controls.next')} title={t('player.controls.nextTitle')} disabled={!hasMedia} onClick={() => send({ kind: 'playback.next' })}>
              <Icon name="next" />
            </button>
          )}
          <button type="button" aria-label={props.muted ? t('player.controls.unmute') : t('player.controls.mute')}
            title={props.muted ? t('player.controls.unmuteTitle') : t('player.controls.muteTitle')} onClick={toggleMute}>
            <Icon name={props.muted ? 'muted' : 'volume'} />
          </button>
          <input
            type="range"
            class="player-volume"
            aria-label={t('player.controls.volume')}
            min={0}
            max={100}
            step={5}
            value={Math.round(props.volume * 100)}
            aria-valuetext={`${Math.round(props.volume * 100)}%`}
            onInput={(event) => {
              player.volume = Number((event.target as HTMLInputElement).value) / 100;
              if (player.volume > 0) player.muted = false;
            }}
          />
        </div>
        <div class="player-group">
          {steer && !props.live && (
            <select
              class="player-rate"
              aria-label={t('player.controls.speed')}
              title={t('player.controls.speed')}
              value={String(playback?.rate ?? 1)}
              disabled={!hasMedia}
              onChange={(event) => send({ kind: 'playback.rate', rate: Number((event.target as HTMLSelectElement).value) })}
            >
              {RATES.map((rate) => (
                <option key={rate} value={String(rate)}>
                  {rate}×
                </option>
              ))}
            </select>
          )}
          {props.extra}
          <button type="button" class="player-theatre" aria-label={t('player.controls.theatre')}
            title={t('player.controls.theatreTitle')} aria-pressed={theatre.value} onClick={toggleTheatre}>
            <Icon name="theatre" />
          </button>
          <button type="button" aria-label={fullscreen ? t('player.controls.exitFullscreen') : t('player.controls.fullscreen')}
            title={fullscreen ? t('player.controls.exitFullscreenTitle') : t('player.controls.fullscreenTitle')} onClick={toggleFullscreen}>
            <Icon name={fullscreen ? 'exitFullscreen' : 'fullscreen'} />
          </button>
        </div>
      </div>
    </div>
  );
}

/** Whether the page is in fullscreen now (Esc or the browser's own UI can leave it). */
function useFullscreen(): boolean {
  const [on, setOn] = useState(() => document.fullscreenElement !== null);
  useEffect(() => {
    const update = () => setOn(document.fullscreenElement !== null);
    document.addEventListener('fullscreenchange', update);
    return () => document.removeEventListener('fullscreenchange', update);
  }, []);
  return on;
}
