import type { User } from '../../accounts/model.js';

/** How a user record is shown over the API (schema `User` in api/common.ts). */
export function userView(user: User): Record<string, unknown> {
  return {
    id: user.id,
    username: user.username,
    displayName: user.displayName,
    email: user.email,
    role: user.role,
    state: user.state,
    createdAt: user.createdAt.toISOString(),
    lastLoginAt: user.lastLoginAt?.toISOString() ?? null,
  };
}
