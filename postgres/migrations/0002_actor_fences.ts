import type { Migration } from './types.js';

/**
 * Fencing tokens of actor activations. Every durable write of an actor raises (or keeps) its
 * row's token inside the write's transaction and is refused when a newer activation has
 * already written with a higher one (see `actors/runtime/fencing.ts`).
 */
export const migration0002: Migration = {
  id: '0002_actor_fences',
  up: `
    CREATE TABLE actor_fences (
      actor_type text NOT NULL,
      actor_id text NOT NULL,
      fence bigint NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (actor_type, actor_id)
    );
  `,
};
