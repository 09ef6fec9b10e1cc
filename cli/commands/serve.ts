import { Command, Option } from 'clipanion';
import { loadConfig, requireValid } from '../../config/index.js';
import { createLogger } from '../../observability/index.js';
import { resolveRoles, ROLES, startService } from '../../server/index.js';
import { startupKeyFlagValues, startupKeyOptions } from '../startup-key-flags.js';
import { SvcCommand } from '../svc-command.js';
import { waitMs, waitOption } from '../wait-option.js';

/** How long a stopped `svc serve` waits for its last handles to close before it exits anyway. */
const EXIT_GRACE_MS = 2000;

export class ServeCommand extends SvcCommand {
  static override paths = [['serve']];
  static override usage = Command.Usage({
    category: 'Server',
    description: 'Run the server (gateway, actor host and workflow worker roles)',
    details: `
      Starts one replica. Without \`--role\` it runs all four roles in one process, which is what \`npm run dev\` does; operators scale each pool by running processes with one role each.

      - \`gateway\`: the web client and the public HTTP API, the room WebSockets, the gRPC API (\`grpc.host\`/\`grpc.port\`), the media proxy and RTMP ingest.
      - \`actors\`: hosts room actors reached over NATS.
      - \`worker\`: runs Temporal workflows (registration and room review).

      Every replica serves the management endpoint (\`management.endpoint\`) used by \`svc system stats\` and \`svc settings ...\`, keeps a runtime-settings cache synchronized through PostgreSQL LISTEN/NOTIFY, and stops cleanly on SIGINT/SIGTERM. Startup configuration is validated first; every failing key is reported and the process exits 1.
    `,
    examples: [
      ['Run every role', '$0 serve'],
      ['Run a gateway on port 8081', '$0 serve --role gateway --http-port 8081'],
      ['Apply migrations, then serve', '$0 serve --migrate'],
      ['Serve a gateway beside dependencies that are still starting', '$0 serve --role gateway --wait 180'],
    ],
  });

  roles = Option.Array('--role', { description: `Role of this process: ${ROLES.join('|')} (repeatable; default all)` });
  migrateFirst = Option.Boolean('--migrate', false, { description: 'Apply pending database migrations before serving' });
  wait = waitOption('PostgreSQL, Redis, NATS or Temporal');

  constructor() {
    super();
    // --http-port, --host, --data-dir, ...: the startup keys whose registry row names a flag.
    Object.assign(this, startupKeyOptions());
  }

  async run(): Promise<number> {
    const roles = resolveRoles(this.roles);
    const dependencyWaitMs = waitMs(this.wait);
    const loaded = await loadConfig({
      ...(this.configFile() ? { file: this.configFile() as string } : {}),
      env: process.env,
      flags: startupKeyFlagValues(this),
    });
    const config = requireValid(loaded, 'server');
    const logger = createLogger({ level: config.log.level, buffered: true });
    const service = await startService({ config, roles, logger, migrateFirst: this.migrateFirst, dependencyWaitMs });

    const startupMs = Math.round(performance.now());
    logger.info({ roles, replicaId: config.replica_id, startupMs, http: service.httpUrl, grpc: service.grpcAddress, metrics: service.metricsUrl, management: service.managementAddress }, 'svc ready');
    // The log is buffered: write it out first, so that the addresses are the last thing a person
    // starting the service sees, not followed by the start's log lines.
    await new Promise<void>((resolve) => logger.flush(() => resolve()));
    if (service.httpUrl) this.context.stdout.write(`svc web client: ${service.httpUrl}/ (open it in a browser)\nsvc HTTP API: ${service.httpUrl}\n`);
    if (service.grpcAddress) this.context.stdout.write(`svc gRPC API: ${service.grpcAddress}\n`);
    if (service.metricsUrl) this.context.stdout.write(`svc metrics:  ${service.metricsUrl}/metrics (detailed readiness: ${service.metricsUrl}/health/ready)\n`);
    if (config.temporal.ui_url) this.context.stdout.write(`Temporal UI:  ${config.temporal.ui_url}\n`);
    this.context.stdout.write(`management:   ${service.managementAddress}\n`);

    await new Promise<void>((resolve) => {
      const stop = (signal: NodeJS.Signals): void => {
        logger.info({ signal }, 'stopping');
        resolve();
      };
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
    await service.stop();
    logger.info('stopped');
    // Stopped beside dependencies that are already gone (a whole Compose stack stopping at once),
    // a client may keep retrying a connection after its close and hold the process up until the
    // container's grace period ends in SIGKILL. Everything is stopped and logged by now.
    setTimeout(() => {
      logger.warn({ afterMs: EXIT_GRACE_MS }, 'connections still retrying after the stop; exiting');
      process.exit(0);
    }, EXIT_GRACE_MS).unref();
    return 0;
  }
}
