import type { ServiceRole, User, UserState } from '../../accounts/index.js';

/** A user as JSON, for the public API and the management API alike. */
export interface UserJson {
  id: string;
  username: string;
  displayName: string;
  email: string | null;
  role: ServiceRole;
  state: UserState;
  createdAt: string;
  lastLoginAt: string | null;
}

/** How a user record is shown over the API (schema `User` in contracts/http/user-view.ts). */
export function userView(user: User): UserJson {
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
