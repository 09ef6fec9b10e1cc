import type { RoomSession } from '../../../state/room.js';

/**
 * The synchronized player of a room (placeholder on the integration branch until the player
 * lands): the room page renders it with the open RoomSession.
 */
export function Player(props: { room: RoomSession }) {
  const media = props.room.view.value?.playback.mediaId;
  return <div class="player-placeholder">{media ? 'Player' : 'Nothing is playing'}</div>;
}
