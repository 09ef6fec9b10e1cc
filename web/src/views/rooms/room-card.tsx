/** One room in a listing: its name as the link, member count and what joining takes. */
import type { ParseKeys } from 'i18next';
import type { Schemas } from '../../api/types.js';
import { useT } from '../../i18n/use-t.js';

type RoomSummary = Schemas['RoomSummary'];

const STATUS_LABEL: Record<RoomSummary['status'], ParseKeys | null> = {
  active: null,
  pending_review: 'rooms.card.pendingReview',
  rejected: 'rooms.card.rejected',
};

export function RoomCard(props: { room: RoomSummary; extra?: string | undefined }) {
  const t = useT();
  const { room } = props;
  const status = STATUS_LABEL[room.status];
  return (
    <li class="card room-card">
      <h3 class="room-card-name">
        <a href={`/rooms/${encodeURIComponent(room.id)}`}>{room.name}</a>
      </h3>
      <p class="muted">
        {t('rooms.card.members', { count: room.memberCount })}
        {props.extra ? ` · ${props.extra}` : ''}
      </p>
      <p class="room-card-badges">
        {room.hasPassword && <span class="badge">{t('rooms.card.password')}</span>}
        {room.requireJoinApproval && <span class="badge">{t('rooms.card.approval')}</span>}
        {room.visibility === 'hidden' && <span class="badge">{t('rooms.card.hidden')}</span>}
        {status && <span class="badge badge-status">{t(status)}</span>}
      </p>
    </li>
  );
}
