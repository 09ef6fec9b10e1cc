/**
 * The room on the phone's lock screen, a headset's buttons and the picture-in-picture window
 * (the Media Session API): the item's title with the room's name and the app's icon as artwork
 * (items carry no thumbnail), the room's playing or paused state and position, and the actions
 * of media-session.ts. Where the browser has no `navigator.mediaSession` this does nothing.
 * Everything is cleared when the player goes (a lock screen must not steer a room left behind).
 */
import { useEffect, useRef } from 'preact/hooks';
import type { RoomPlayback } from '../sync/index.js';
import { LOCK_SCREEN_ACTIONS, lockScreenPosition, type LockScreenAction, type LockScreenHandler } from './media-session.js';

/** The app's icon (always present; PNG icons may come with the installable app, SVG serves every size). */
const ARTWORK: MediaImage[] = [{ src: '/favicon.svg', sizes: 'any', type: 'image/svg+xml' }];

export interface MediaSessionProps {
  /** The current item's title; null: nothing is playing. */
  title: string | null;
  roomName: string;
  playback: RoomPlayback | undefined;
  /** The element's length (s), once known. */
  duration: number | undefined;
  serverNow(): number | undefined;
  handlers: Record<LockScreenAction, LockScreenHandler | null>;
}

/** How long to wait for the first clock estimate before showing the position. */
const CLOCK_WAIT_MS = 250;

const session = (): MediaSession | undefined => ('mediaSession' in navigator ? navigator.mediaSession : undefined);

export function useMediaSession(props: MediaSessionProps): void {
  const { title, roomName, playback, duration } = props;
  // The handlers change with every render of the controls: the browser calls the latest through this.
  const latest = useRef(props.handlers);
  latest.current = props.handlers;
  const offered = LOCK_SCREEN_ACTIONS.filter((action) => props.handlers[action] !== null).join(' ');

  useEffect(() => {
    const media = session();
    if (!media) return;
    const set = (action: LockScreenAction, on: boolean) => {
      try {
        media.setActionHandler(action, on ? (details) => latest.current[action]?.(details) : null);
      } catch {
        // An action this browser does not know: its button simply does not exist here.
      }
    };
    const wanted = new Set(offered.split(' '));
    for (const action of LOCK_SCREEN_ACTIONS) set(action, wanted.has(action));
    return () => {
      for (const action of LOCK_SCREEN_ACTIONS) set(action, false);
    };
  }, [offered]);

  useEffect(() => {
    const media = session();
    if (!media) return;
    media.metadata = title === null ? null : new MediaMetadata({ title, artist: roomName, artwork: ARTWORK });
  }, [title, roomName]);
  useEffect(
    () => () => {
      const media = session();
      if (!media) return;
      media.metadata = null;
      media.playbackState = 'none';
      media.setPositionState?.();
    },
    [],
  );

  // The state and position change only when the room's playback does (or the length becomes
  // known): in between the lock screen extrapolates at the rate it was given.
  const key = playback ? `${playback.mediaId}|${playback.playing}|${playback.position}|${playback.rate}|${playback.updatedAt}` : '';
  useEffect(() => {
    const media = session();
    if (!media) return;
    media.playbackState = !playback?.mediaId ? 'none' : playback.playing ? 'playing' : 'paused';
    let again: ReturnType<typeof setTimeout> | undefined;
    const apply = (): void => {
      const now = props.serverNow();
      // The clock is measured within a second of joining; a scheduled start is set again at its instant.
      if (playback?.mediaId && now === undefined) again = setTimeout(apply, CLOCK_WAIT_MS);
      else if (playback?.playing && now !== undefined && playback.updatedAt > now) again = setTimeout(apply, playback.updatedAt - now);
      const position = playback?.mediaId && now !== undefined ? lockScreenPosition(playback, now, duration) : null;
      try {
        media.setPositionState?.(position ?? undefined);
      } catch {
        // Refused (a position past a length that just changed): the next change sets it again.
      }
    };
    apply();
    return () => clearTimeout(again);
  }, [key, duration]);
}
