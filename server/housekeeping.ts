/**
 * The worker role's periodic cleanups: chat past its retention, replies of durable actor
 * commands past their deadline, ended sessions, spent email codes and old notifications. Each
 * is safe when several workers run it at once.
 */
import { type Accounts, purgeCodes } from '../accounts/index.js';
import { purgeExpiredCommands } from '../actors/client.js';
import { purgeOldNotifications } from '../notifications/index.js';
import type { Logger } from '../observability/index.js';
import type { RuntimeSettings } from '../settings/index.js';
import type { Connections } from './connections.js';
import { startPeriodicJob } from './periodic-job.js';
import type { Stops } from './stops.js';

/** Chat retention is a cleanup, not a guarantee to the minute; once a minute is plenty. */
const CHAT_RETENTION_INTERVAL_MS = 60_000;
/** Ended sessions and spent email codes only take space; removing them hourly is enough. */
const ACCOUNTS_CLEANUP_INTERVAL_MS = 3_600_000;

export interface Housekeeping {
  logger: Logger;
  connections: Connections;
  settings: RuntimeSettings;
  accounts: Accounts;
}

/** Chat retention is the room's code (actors/index.ts): loaded at its first run, a minute after start, not while a worker starts. */
const roomCode = () => import('../actors/index.js');

export function startHousekeeping(deps: Housekeeping, stops: Stops): void {
  const { logger, connections, settings, accounts } = deps;
  const retention = startPeriodicJob({
    name: 'chat-retention',
    intervalMs: CHAT_RETENTION_INTERVAL_MS,
    logger,
    run: async () => (await roomCode()).runChatRetention(connections.pool, settings, logger),
  });
  stops.push(() => retention.stop());
  // Replies of durable actor commands are kept for retries until a minute past their deadline.
  const commandLog = startPeriodicJob({
    name: 'actor-command-log',
    intervalMs: CHAT_RETENTION_INTERVAL_MS,
    logger,
    run: () => purgeExpiredCommands(connections.pool),
  });
  stops.push(() => commandLog.stop());
  const accountsCleanup = startPeriodicJob({
    name: 'accounts-cleanup',
    intervalMs: ACCOUNTS_CLEANUP_INTERVAL_MS,
    logger,
    run: async () => {
      await accounts.sessions.purgeEnded();
      await purgeCodes(connections.pool);
      await purgeOldNotifications(connections.pool);
    },
  });
  stops.push(() => accountsCleanup.stop());
}
