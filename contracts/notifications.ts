/**
 * A user's notifications: what happened to them while they were elsewhere (a review decided,
 * a join request decided, a room role changed). Stored per user (the inbox) and pushed live to
 * the user's open sockets. A leaf module (no Node or server imports) so clients can share it.
 */
export const NOTIFICATION_KINDS = ['review.decided', 'join_request.decided', 'room.role_changed', 'chat.mention'] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

export type NotificationPayload =
  | { kind: 'review.decided'; review: 'registration' | 'room'; approved: boolean; reason?: string; roomId?: string; roomName?: string }
  | { kind: 'join_request.decided'; roomId: string; roomName: string; approved: boolean }
  | { kind: 'room.role_changed'; roomId: string; roomName: string; role: 'admin' | 'member' | 'guest' }
  /** Someone mentioned the user (@name) in a room's chat; `excerpt` is the message's start. */
  | { kind: 'chat.mention'; roomId: string; roomName: string; messageId: string; by: string; excerpt: string };

export type Notification = NotificationPayload & {
  /** Decimal string (a PostgreSQL bigint); larger ids are newer. */
  id: string;
  userId: string;
  /** Server ms since the epoch. */
  createdAt: number;
  readAt: number | null;
};
