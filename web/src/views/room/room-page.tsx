import { useEffect, useState } from 'preact/hooks';
import { RoomSession } from '../../state/room.js';
import { session } from '../../state/session.js';
import { Page } from '../../ui/page.js';
import { Player } from './player/player.js';

// Placeholder until this page is built (issue 11 integration branch only): opens the room and
// shows its player, so the player and its end-to-end tests have a page to live in.
export function RoomPage(props: { roomId?: string; params?: { roomId?: string } }) {
  const roomId = props.params?.roomId ?? props.roomId ?? '';
  const [room] = useState(() => new RoomSession(roomId));
  // The socket's ticket needs the access token: wait for the session restore to finish.
  const restored = session.value !== undefined;
  useEffect(() => {
    if (!restored) return;
    room.start();
    return () => room.stop();
  }, [room, restored]);
  return (
    <Page title={room.view.value?.room.name ?? 'Room'} wide>
      <Player room={room} />
    </Page>
  );
}
