import type { Migration } from './types.js';

/**
 * The replies of durable actor commands, keyed by command id, written in the same fenced
 * transaction as the command's effect. A new activation loads the ones still inside their
 * deadline, so a retry that reaches it (after a failover or a drain) gets the original answer
 * instead of running the command a second time (see `actors/runtime/command-log.ts`).
 */
export const migration0004: Migration = {
  id: '0004_actor_commands',
  up: `
    CREATE TABLE actor_commands (
      actor_type text NOT NULL,
      actor_id text NOT NULL,
      command_id text NOT NULL,
      reply text NOT NULL,
      expires_at timestamptz NOT NULL,
      PRIMARY KEY (actor_type, actor_id, command_id)
    );
    CREATE INDEX actor_commands_expires_at ON actor_commands (expires_at);
  `,
};
