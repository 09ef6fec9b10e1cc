import type { Migration } from './types.js';

/**
 * Runtime settings and their audit trail. Only keys that were written have a row in
 * `settings`; a missing row means "at the registry default". `version` counts writes of one
 * key and lets a replica ignore a reload older than what it already holds.
 */
export const migration0001: Migration = {
  id: '0001_settings',
  up: `
    CREATE TABLE settings (
      key text PRIMARY KEY,
      value jsonb NOT NULL,
      version bigint NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now(),
      updated_by text NOT NULL
    );

    CREATE TABLE settings_history (
      id bigserial PRIMARY KEY,
      key text NOT NULL,
      -- NULL when the key was at its default before this change.
      old_value jsonb,
      new_value jsonb NOT NULL,
      changed_by text NOT NULL,
      source text NOT NULL,
      replica_id text,
      changed_at timestamptz NOT NULL DEFAULT now()
    );

    CREATE INDEX settings_history_key_id_idx ON settings_history (key, id DESC);
  `,
};
