/**
 * What every role of a replica shares, started before any role: the runtime-settings cache, the
 * review client and the accounts (with their mailer). Actor hosts start room reviews, gateways
 * sign users in, the worker's review activities create the accounts reviewers approve, and the
 * management endpoint (served whatever the roles) reads and decides all of them.
 */
import { Accounts, natsRevocationPublisher } from '../accounts/index.js';
import type { StartupConfig } from '../config/index.js';
import { createMailer } from '../mail/index.js';
import type { Logger } from '../observability/index.js';
import { RuntimeSettings } from '../settings/index.js';
import { migrate } from '../postgres/index.js';
import { ReviewClient } from '../workflows/index.js';
import type { Connections } from './connections.js';
import type { Stops } from './stops.js';

export interface SharedServices {
  settings: RuntimeSettings;
  reviews: ReviewClient;
  accounts: Accounts;
}

export interface SharedServicesStart {
  config: StartupConfig;
  logger: Logger;
  connections: Connections;
  /** Apply pending migrations first (containers that have no separate step). */
  migrateFirst: boolean;
}

export async function startSharedServices(start: SharedServicesStart, stops: Stops): Promise<SharedServices> {
  const { config, logger, connections } = start;
  if (start.migrateFirst) await migrate(connections.pool, logger);
  const settings = await RuntimeSettings.start({
    pool: connections.pool,
    connectionString: config.database.url,
    logger,
    replicaId: config.replica_id,
  });
  stops.push(() => settings.stop());
  settings.subscribe((change) =>
    logger.info({ key: change.key, version: change.version, appliedAt: change.appliedAt }, 'runtime setting applied'),
  );

  // Every role may start or decide reviews: actor hosts (rooms under review), the management endpoint.
  const reviews = ReviewClient.fromConnection(connections.temporal, {
    namespace: config.temporal.namespace,
    taskQueue: config.temporal.task_queue,
  });
  // Gateways sign users in; the worker's review activities create the accounts reviewers approve.
  const mailer = createMailer(config.smtp, logger);
  stops.push(() => Promise.resolve(mailer.close()));
  const accounts = new Accounts({
    pool: connections.pool,
    redis: connections.redis,
    settings,
    config,
    reviews,
    mailer,
    publicUrl: config.server.public_url || config.webauthn.rp_origin,
    revocations: natsRevocationPublisher(connections.nats, config.nats.subject_prefix, logger),
    logger,
  });
  stops.push(() => accounts.opaqueOnServer.close());
  return { settings, reviews, accounts };
}
