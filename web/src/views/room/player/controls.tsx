/**
 * The player's controls. Members with `control_playback` steer the room (play/pause, seek,
 * rate; next/previous also need `set_current_media`): commands carry `sentAt` (the server time
 * estimate) and play/seek a `startInMs` lead so every member starts at the same instant.
 * Everyone has volume, mute and fullscreen, which stay local.
 */
import { useState } from 'preact/hooks';
import type { RoomCommand } from '../../../../../actors/room/commands.js';
import type { RoomSession } from '../../../state/room.js';
import { ErrorNotice } from '../../../ui/error-notice.js';
import type { PlayerSync } from './player-sync.js';
import { clockText } from './status.js';

const RATES = [0.5, 0.75, 1, 1.25, 1.5, 2];

export interface ControlsProps {
  room: RoomSession;
  sync: PlayerSync;
  video: HTMLVideoElement | null;
  position: number;
  duration: number;
  volume: number;
  muted: boolean;
  live: boolean;
  onFullscreen(): void;
}

export function Controls(props: ControlsProps) {
  const { room, sync, video } = props;
  const [error, setError] = useState<unknown>(null);
  const [dragging, setDragging] = useState<number | null>(null);
  const playback = room.view.value?.playback;
  const steer = room.can('control_playback');
  const skip = steer && room.can('set_current_media');
  const playing = playback?.playing ?? false;
  const hasMedia = (playback?.mediaId ?? null) !== null;

  const send = (command: RoomCommand): void => {
    setError(null);
    const sentAt = sync.serverNow();
    sync.sent(command.kind);
    room.send(command, sentAt === undefined ? {} : { sentAt }).catch(setError);
  };
  const seekTo = (position: number): void => {
    setDragging(null);
    send({ kind: 'playback.seek', position, startInMs: sync.startInMs('seek') });
  };
  const shown = dragging ?? props.position;
  const duration = Number.isFinite(props.duration) && props.duration > 0 ? props.duration : 0;

  return (
    <div class="player-controls">
      {steer && (
        <div class="player-row">
          {skip && (
            <button type="button" class="button-quiet" disabled={!hasMedia} onClick={() => send({ kind: 'playback.previous' })}>
              Previous
            </button>
          )}
          <button
            type="button"
            class="button-primary player-toggle"
            disabled={!hasMedia}
            onClick={() =>
              playing
                ? send({ kind: 'playback.pause', ...(video && !props.live ? { position: video.currentTime } : {}) })
                : send({ kind: 'playback.play', startInMs: sync.startInMs('play') })
            }
          >
            {playing ? 'Pause' : 'Play'}
          </button>
          {skip && (
            <button type="button" class="button-quiet" disabled={!hasMedia} onClick={() => send({ kind: 'playback.next' })}>
              Next
            </button>
          )}
          {!props.live && (
            <label class="player-rate">
              <span>Speed</span>
              <select
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
            </label>
          )}
        </div>
      )}
      {!props.live && (
        <div class="player-row player-seek">
          <span class="player-time" aria-hidden="true">
            {clockText(shown)}
          </span>
          <input
            type="range"
            class="player-seekbar"
            aria-label="Seek"
            aria-valuetext={`${clockText(shown)} of ${clockText(duration)}`}
            min={0}
            max={duration || 1}
            step={1}
            value={Math.min(shown, duration || 1)}
            disabled={!steer || !hasMedia || duration === 0}
            onInput={(event) => setDragging(Number((event.target as HTMLInputElement).value))}
            onChange={(event) => seekTo(Number((event.target as HTMLInputElement).value))}
          />
          <span class="player-time" aria-hidden="true">
            {clockText(duration)}
          </span>
        </div>
      )}
      <div class="player-row">
        <button type="button" class="button-quiet" aria-pressed={props.muted} onClick={() => video && (video.muted = !video.muted)}>
          {props.muted ? 'Unmute' : 'Mute'}
        </button>
        <label class="player-volume">
          <span>Volume</span>
          <input
            type="range"
            min={0}
            max={100}
            step={5}
            value={Math.round(props.volume * 100)}
            aria-valuetext={`${Math.round(props.volume * 100)}%`}
            onInput={(event) => {
              if (!video) return;
              video.volume = Number((event.target as HTMLInputElement).value) / 100;
              if (video.volume > 0) video.muted = false;
            }}
          />
        </label>
        <button type="button" class="button-quiet" onClick={props.onFullscreen}>
          Fullscreen
        </button>
      </div>
      <ErrorNotice error={error} onDismiss={() => setError(null)} />
    </div>
  );
}
