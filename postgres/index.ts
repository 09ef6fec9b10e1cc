/**
 * The public surface of postgres/: what code outside postgres/ may import (lint refuses a deeper
 * import; tests may reach inside). docs/2026-11-29-public-surfaces.md.
 */
export { advisoryLockNamespaces, advisoryLocks } from './advisory-locks.js';
export { classifyDatabaseError } from './errors.js';
export { HostSelector, selectingClient } from './host-selector.js';
export { migrate, pendingMigrations } from './migrate.js';
export { createPool, withLongStatements } from './pool.js';
export { withTransaction } from './transaction.js';
export { WriteBatcher } from './write-batcher.js';
