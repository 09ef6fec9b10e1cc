/**
 * Where a stored notification is announced for live delivery: `<prefix>.user.<userId>.notify`,
 * carrying the Notification as JSON. Gateways holding sockets of that user forward it; the
 * inbox in PostgreSQL stays the record (a user with no socket open reads it later).
 */
export function notificationSubject(prefix: string, userId: string): string {
  return `${prefix}.user.${userId}.notify`;
}
