import type { Migration } from './types.js';

/**
 * Each user's notification inbox, and their notification preferences (a user preference, not
 * a runtime setting: spec 1, rule 3). Notifications are written in the transaction of the
 * decision they report (a join request approved, a role changed, a review decided), so an
 * inbox never misses a decision that took effect nor holds one that did not.
 */
export const migration0007: Migration = {
  id: '0007_notifications',
  up: `
    CREATE TABLE notifications (
      id bigserial PRIMARY KEY,
      user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      kind text NOT NULL,
      payload jsonb NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      read_at timestamptz
    );
    CREATE INDEX notifications_inbox ON notifications (user_id, id DESC);
    CREATE INDEX notifications_unread ON notifications (user_id) WHERE read_at IS NULL;
    CREATE INDEX notifications_age ON notifications (created_at);

    -- Kind -> false to stop receiving it; a kind not listed is received.
    ALTER TABLE users ADD COLUMN notification_preferences jsonb NOT NULL DEFAULT '{}'::jsonb;
  `,
};
