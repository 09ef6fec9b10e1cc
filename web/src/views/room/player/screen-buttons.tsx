/**
 * The player's buttons for other screens, in the controls' right-hand group: the video's own
 * picture-in-picture, picture-in-picture with the chat (Document picture-in-picture, where the
 * browser has it), and casting (only while the browser says a device is there, or a connection
 * is on). Each is a plain button in the controls' style; the browser refusing (a picker
 * dismissed, no gesture) changes nothing on the page.
 */
import { render } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import type { RoomSession } from '../../../state/room.js';
import type { PlayerSync } from '../../../player/player-sync.js';
import { usePictureInPicture } from '../../../player/pip.js';
import { documentPipSupported, openDocumentPip, type DocumentPipWindow } from '../../../player/document-pip.js';
import type { RemoteScreen } from '../../../player/remote-playback.js';
import { ChatPanel } from '../chat-panel.js';
import { Icon } from './icons.js';
import { useT } from '../../../i18n/use-t.js';

export function PipButton(props: { video: HTMLVideoElement | null }) {
  const t = useT();
  const pip = usePictureInPicture(props.video);
  if (!pip.supported) return null;
  const label = pip.active ? t('player.screens.exitPip') : t('player.screens.pip');
  return (
    <button type="button" class="player-pip" aria-label={label} title={label} aria-pressed={pip.active} onClick={() => void pip.toggle().catch(() => undefined)}>
      <Icon name="pip" />
    </button>
  );
}

/** The video and the chat in an always-on-top window; `onOpen` tells the player the video left the page. */
export function PipChatButton(props: { video: HTMLVideoElement | null; room: RoomSession; open: boolean; onOpen: (open: boolean) => void }) {
  const t = useT();
  const { video, room, onOpen } = props;
  const opened = useRef<DocumentPipWindow | null>(null);
  // The player goes (the room is left, or another player takes over): the window closes, the video comes back.
  useEffect(() => () => opened.current?.close(), [video]);
  if (!video || !documentPipSupported()) return null;
  const toggle = async (): Promise<void> => {
    if (opened.current) return opened.current.close();
    opened.current = await openDocumentPip(
      video,
      (host) => {
        render(<ChatPanel session={room} />, host);
        return () => render(null, host);
      },
      () => {
        opened.current = null;
        onOpen(false);
      },
    );
    onOpen(true);
  };
  const label = props.open ? t('player.screens.exitPipChat') : t('player.screens.pipChat');
  return (
    <button type="button" class="player-pip-chat" aria-label={label} title={label} aria-pressed={props.open} onClick={() => void toggle().catch(() => undefined)}>
      <Icon name="pipChat" />
    </button>
  );
}

/** Casting: the element set to the room's position, then the browser's device picker. */
export function CastButton(props: { screen: RemoteScreen | null; sync: PlayerSync; mediaId: string | null }) {
  const t = useT();
  const { screen, sync, mediaId } = props;
  if (!screen || mediaId === null) return null;
  const state = screen.state.value;
  if (!screen.available.value && state === 'disconnected') return null;
  const label = state === 'connected' ? t('player.screens.castConnected') : state === 'connecting' ? t('player.screens.castConnecting') : t('player.screens.cast');
  return (
    <button type="button" class="player-cast" aria-label={label} title={label} aria-pressed={state !== 'disconnected'}
      onClick={() => void screen.start(state === 'disconnected' ? sync.roomPosition(mediaId) : undefined).catch(() => undefined)}>
      <Icon name="cast" />
    </button>
  );
}
