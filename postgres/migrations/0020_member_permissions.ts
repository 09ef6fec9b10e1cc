import type { Migration } from './types.js';

/**
 * A member's own grants and denials on top of their role (actors/room/members/permissions.ts),
 * as `{grant: [...], deny: [...]}`; NULL: the role's permissions alone. They live on the
 * membership row, so leaving the room (or being kicked) forgets them and a new membership starts
 * from the role. Names are checked when read, like the room's role overrides.
 */
export const migration0020: Migration = {
  id: '0020_member_permissions',
  up: `
    ALTER TABLE room_members ADD COLUMN permission_override jsonb;
  `,
};
