import { Command } from 'clipanion';
import { loadConfig, requireValid } from '../../config/index.js';
import { retryWhileUnavailable } from '../../errors/index.js';
import { createLogger } from '../../observability/index.js';
import { classifyDatabaseError } from '../../postgres/index.js';
import { migrate } from '../../postgres/index.js';
import { createPool } from '../../postgres/index.js';
import { SvcCommand } from '../svc-command.js';
import { waitMs, waitOption } from '../wait-option.js';

export class MigrateCommand extends SvcCommand {
  static override paths = [['migrate']];
  static override usage = Command.Usage({
    category: 'Server',
    description: 'Apply pending database migrations',
    details: `
      Applies the versioned migrations this binary ships to \`database.url\`, each once, in order. Replicas that run it at the same time wait for one another (PostgreSQL advisory lock), so it is safe in every replica's start script. A database migrated by a newer binary is refused.

      \`--wait <seconds>\` keeps trying while PostgreSQL cannot be reached (not yet started, still starting up, its name not yet resolvable), for a migration that starts beside its database (a Compose service, a Kubernetes Job). Any other error, such as a refused password, fails at once.
    `,
    examples: [
      ['Migrate the configured database', '$0 migrate'],
      ['Migrate once PostgreSQL is reachable, giving it two minutes', '$0 migrate --wait 120'],
    ],
  });

  wait = waitOption('PostgreSQL');

  async run(): Promise<number> {
    const wait = waitMs(this.wait);
    const loaded = await loadConfig({ ...(this.configFile() ? { file: this.configFile() as string } : {}), env: process.env });
    const config = requireValid(loaded, 'database');
    const logger = createLogger({ level: 'warn', destination: 'stderr' });
    const pool = createPool({ url: config.database.url, max: 2, applicationName: 'svc:migrate' });
    try {
      const { applied } = await retryWhileUnavailable(
        async () => {
          try {
            return await migrate(pool, logger);
          } catch (err) {
            throw classifyDatabaseError(err, 'migrate');
          }
        },
        wait,
        (error, attempt) => this.context.stderr.write(`${error.message}; trying again (attempt ${attempt}, until --wait ${this.wait} s runs out)\n`),
      );
      this.context.stdout.write(applied.length === 0 ? 'database is up to date\n' : `applied ${applied.length} migration(s): ${applied.join(', ')}\n`);
      return 0;
    } finally {
      await pool.end();
    }
  }
}
