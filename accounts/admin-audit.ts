import type { Logger } from '../observability/index.js';
import type { AdminActor } from './admin-policy.js';
import type { User } from './model.js';

/**
 * One log line per administrative change of an account, the same from `svc user` and the admin
 * endpoints: who did what to whom, with the details an investigation needs (a ban's reason).
 * Never a password.
 */
export function logAdminAction(log: Logger, action: string, actor: AdminActor, user: User, details: Record<string, unknown> = {}): void {
  log.info({ audit: action, actor: actor.name, userId: user.id, username: user.username, ...details }, `user administration: ${action} ${user.username} by ${actor.name}`);
}
