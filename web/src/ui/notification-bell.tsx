/**
 * The header bell: the unread count, and on opening the newest notifications, each saying what
 * happened in a sentence of its own. Opening it marks them read.
 */
import { useEffect, useState } from 'preact/hooks';
import type { Notification } from '../../../contracts/notifications.js';
import { loadNotifications, markAllRead, notifications, unreadCount } from '../state/notifications.js';
import { formatNumber } from '../i18n/format.js';
import { Rich } from '../i18n/rich.js';
import { useT } from '../i18n/use-t.js';
import './notification-bell.css';

function NotificationText(props: { note: Notification }) {
  const t = useT();
  const note = props.note;
  const room = `/rooms/${encodeURIComponent('roomId' in note ? note.roomId : '')}`;
  switch (note.kind) {
    case 'chat.mention':
      return (
        <a href={room}>
          <Rich k="shell.bell.mention" parts={{ by: <strong>{note.by}</strong>, room: <strong>{note.roomName}</strong> }} values={{ excerpt: note.excerpt }} />
        </a>
      );
    case 'join_request.decided':
      return <a href={room}>{t(note.approved ? 'shell.bell.joinApproved' : 'shell.bell.joinDeclined', { room: note.roomName })}</a>;
    case 'room.role_changed':
      return <a href={room}>{t('shell.bell.roleChanged', { room: note.roomName, role: t(`common.roomRoles.${note.role}`) })}</a>;
    case 'review.decided':
      return <span>{t(note.approved ? 'shell.bell.reviewApproved' : 'shell.bell.reviewDeclined')}</span>;
  }
}

export function NotificationBell() {
  const t = useT();
  const [open, setOpen] = useState(false);
  useEffect(() => {
    loadNotifications().catch(() => undefined);
  }, []);
  const unread = unreadCount.value;
  const toggle = () => {
    setOpen(!open);
    if (!open && unread > 0) markAllRead().catch(() => undefined);
  };
  return (
    <div class="bell">
      <button type="button" class="button-quiet bell-button" aria-expanded={open} aria-controls="bell-list" onClick={toggle}>
        <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
          <path d="M12 3a6 6 0 0 0-6 6v4l-2 3h16l-2-3V9a6 6 0 0 0-6-6zm-2 15a2 2 0 0 0 4 0z" fill="currentColor" />
        </svg>
        <span class="visually-hidden">{t('shell.bell.label')}</span>
        {unread > 0 && (
          <span class="bell-count" data-testid="bell-count">
            <span aria-hidden="true">{formatNumber(unread)}</span>
            <span class="visually-hidden">{t('shell.bell.unread', { count: unread })}</span>
          </span>
        )}
      </button>
      {open && (
        <div id="bell-list" class="bell-list">
          {notifications.value.length === 0 ? (
            <p class="muted">{t('shell.bell.empty')}</p>
          ) : (
            <ul>
              {notifications.value.map((note) => (
                <li key={note.id} class={note.readAt === null ? 'is-unread' : undefined}>
                  <NotificationText note={note} />
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </div>
  );
}
