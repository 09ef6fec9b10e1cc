import { Command } from 'clipanion';
import { loadConfig, requireValid } from '../../config/load.js';
import { createLogger } from '../../observability/logger.js';
import { migrate } from '../../store/migrate.js';
import { createPool } from '../../store/pool.js';
import { SvcCommand } from '../svc-command.js';

export class MigrateCommand extends SvcCommand {
  static override paths = [['migrate']];
  static override usage = Command.Usage({
    category: 'Server',
    description: 'Apply pending database migrations',
    details: `
      Applies the versioned migrations this binary ships to \`database.url\`, each once, in order. Replicas that run it at the same time wait for one another (PostgreSQL advisory lock), so it is safe in every replica's start script. A database migrated by a newer binary is refused.
    `,
    examples: [['Migrate the configured database', '$0 migrate']],
  });

  async run(): Promise<number> {
    const loaded = await loadConfig({ ...(this.configFile() ? { file: this.configFile() as string } : {}), env: process.env });
    const config = requireValid(loaded, 'database');
    const logger = createLogger({ level: 'warn', destination: 'stderr' });
    const pool = createPool({ url: config.database.url, max: 2, applicationName: 'svc:migrate' });
    try {
      const { applied } = await migrate(pool, logger);
      this.context.stdout.write(applied.length === 0 ? 'database is up to date\n' : `applied ${applied.length} migration(s): ${applied.join(', ')}\n`);
      return 0;
    } finally {
      await pool.end();
    }
  }
}
