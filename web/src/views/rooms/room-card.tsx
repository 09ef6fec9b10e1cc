/** One room in a listing: its name as the link, member count and what joining takes. */
import type { Schemas } from '../../api/types.js';

type RoomSummary = Schemas['RoomSummary'];

const STATUS_LABEL: Record<RoomSummary['status'], string | null> = {
  active: null,
  pending_review: 'Waiting for review',
  rejected: 'Rejected',
};

export function RoomCard(props: { room: RoomSummary; extra?: string | undefined }) {
  const { room } = props;
  const status = STATUS_LABEL[room.status];
  return (
    <li class="card room-card">
      <h3 class="room-card-name">
        <a href={`/rooms/${encodeURIComponent(room.id)}`}>{room.name}</a>
      </h3>
      <p class="muted">
        {room.memberCount === 1 ? '1 member' : `${room.memberCount} members`}
        {props.extra ? ` · ${props.extra}` : ''}
      </p>
      <p class="room-card-badges">
        {room.hasPassword && <span class="badge">Password</span>}
        {room.requireJoinApproval && <span class="badge">Approval needed</span>}
        {room.visibility === 'hidden' && <span class="badge">Hidden</span>}
        {status && <span class="badge badge-status">{status}</span>}
      </p>
    </li>
  );
}
