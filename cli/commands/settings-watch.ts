import { Command, Option } from 'clipanion';
import { loadConfig, requireValid } from '../../config/index.js';
import { AppError } from '../../errors/index.js';
import { createLogger } from '../../observability/index.js';
import { findDefinition, type SettingKey } from '../../settings/index.js';
import { RuntimeSettings, type SettingChangeEvent } from '../../settings/index.js';
import { redactSettingValue } from '../../settings/index.js';
import { createPool } from '../../postgres/index.js';
import { SvcCommand } from '../svc-command.js';

export class SettingsWatchCommand extends SvcCommand {
  static override paths = [['settings', 'watch']];
  static override usage = Command.Usage({
    category: 'Runtime settings',
    description: 'Follow runtime-setting changes as a replica sees them',
    details: `
      Connects straight to PostgreSQL (\`database.url\`), keeps a runtime-settings cache exactly as a running replica does (LISTEN/NOTIFY, a full reload after every reconnect) and prints one JSON object per line for every change applied to that cache, until interrupted (SIGINT or SIGTERM). Each object has:

      - \`key\` and \`value\`: the setting and its new value;
      - \`version\`: how many times that key has been written;
      - \`appliedAt\`: when this process applied the change, in epoch milliseconds with a sub-millisecond fraction.

      Lines are written one at a time as changes arrive, so the output can be piped (for example into \`jq\`). Use it to observe that a change reached the replicas (run \`svc settings update\`, then watch), or as a probe of propagation delay. Credential fields inside values (OAuth2 client secrets, ICE server credentials) are redacted unless \`--show-secrets\` is given.

      A line saying it is watching is written to stderr once the listener is in place; changes committed after that line are never missed.
    `,
    examples: [
      ['Print every change', '$0 settings watch'],
      ['Only two keys', '$0 settings watch --key server.maxRoomsPerUser --key room.passwordPolicy'],
      ['Against another database', 'SVC_DATABASE_URL=postgres://svc@db.internal/svc $0 settings watch'],
    ],
  });

  keys = Option.Array('--key', { description: 'Only print changes of this key (repeatable)' });
  showSecrets = Option.Boolean('--show-secrets', false, { description: 'Print credential fields inside values' });

  async run(): Promise<number> {
    const keys = this.requestedKeys();
    const file = this.configFile();
    const loaded = await loadConfig({ ...(file ? { file } : {}), env: process.env });
    const config = requireValid(loaded, 'database');
    const logger = createLogger({ level: 'warn', name: 'svc-settings-watch', destination: 'stderr' });
    const pool = createPool({ url: config.database.url, max: 2, applicationName: 'svc:settings-watch', logger });
    const { stdout, stderr } = this.context;
    try {
      const settings = await RuntimeSettings.start({
        pool,
        connectionString: config.database.url,
        logger,
        replicaId: config.replica_id,
      });
      try {
        settings.subscribe((change) => stdout.write(`${JSON.stringify(this.line(change))}\n`), keys);
        const watched = keys ? `${keys.length} runtime setting(s)` : 'all runtime settings';
        stderr.write(`watching ${watched} as replica ${config.replica_id}; stop with Ctrl-C\n`);
        await untilInterrupted(stdout);
      } finally {
        await settings.stop();
      }
      return 0;
    } finally {
      await pool.end();
    }
  }

  private requestedKeys(): SettingKey[] | undefined {
    if (!this.keys || this.keys.length === 0) return undefined;
    const unknown = this.keys.filter((key) => !findDefinition(key));
    if (unknown.length > 0) {
      throw AppError.invalid(
        unknown.map((key) => ({ key, message: 'unknown runtime setting; "svc settings list" shows every key' })),
      );
    }
    return this.keys as SettingKey[];
  }

  private line(change: SettingChangeEvent): Record<string, unknown> {
    return {
      key: change.key,
      value: this.showSecrets ? change.value : redactSettingValue(change.key, change.value),
      version: change.version,
      appliedAt: change.appliedAt,
    };
  }
}

/**
 * Resolves on SIGINT or SIGTERM, or when nobody reads the output any more (a closed pipe, as
 * in `svc settings watch | head -1`).
 */
function untilInterrupted(stdout: NodeJS.WritableStream): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      process.off('SIGINT', done);
      process.off('SIGTERM', done);
      stdout.off('error', done);
      resolve();
    };
    process.on('SIGINT', done);
    process.on('SIGTERM', done);
    stdout.on('error', done);
  });
}
