/**
 * The header bell: the unread count, and on opening the newest notifications, each saying what
 * happened in a sentence of its own. Opening it marks them read.
 */
import { useEffect, useState } from 'preact/hooks';
import type { Notification } from '../../../contracts/notifications.js';
import { loadNotifications, markAllRead, notifications, unreadCount } from '../state/notifications.js';
import './notification-bell.css';

function NotificationText(props: { note: Notification }) {
  const note = props.note;
  switch (note.kind) {
    case 'chat.mention':
      return (
        <a href={`/rooms/${encodeURIComponent(note.roomId)}`}>
          <strong>{note.by}</strong> mentioned you in <strong>{note.roomName}</strong>: “{note.excerpt}”
        </a>
      );
    case 'join_request.decided':
      return <a href={`/rooms/${encodeURIComponent(note.roomId)}`}>{note.approved ? `You may now join ${note.roomName}.` : `Your request to join ${note.roomName} was declined.`}</a>;
    case 'room.role_changed':
      return <a href={`/rooms/${encodeURIComponent(note.roomId)}`}>{`Your role in ${note.roomName} is now ${note.role}.`}</a>;
    case 'review.decided':
      return <span>{note.approved ? 'A reviewer approved your request.' : 'A reviewer declined your request.'}</span>;
  }
}

export function NotificationBell() {
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
        <span class="visually-hidden">Notifications</span>
        {unread > 0 && (
          <span class="bell-count" data-testid="bell-count">
            {unread}
            <span class="visually-hidden"> unread</span>
          </span>
        )}
      </button>
      {open && (
        <div id="bell-list" class="bell-list">
          {notifications.value.length === 0 ? (
            <p class="muted">No notifications yet.</p>
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
