import { Command, Option } from 'clipanion';
import { AppError, isAppError } from '../errors/index.js';

/**
 * Base of every `svc` command: the global `--config` flag and one way of reporting errors
 * (`error[code]: message`, one line per offending key, exit 1).
 */
export abstract class SvcCommand extends Command {
  configPath = Option.String('--config', {
    description: 'YAML startup configuration file (also SVC_CONFIG)',
  });

  /** The config file named by --config or SVC_CONFIG, if any. */
  protected configFile(): string | undefined {
    return this.configPath ?? process.env.SVC_CONFIG ?? undefined;
  }

  abstract run(): Promise<number>;

  async execute(): Promise<number> {
    try {
      return await this.run();
    } catch (err) {
      this.reportError(err);
      return 1;
    }
  }

  protected reportError(err: unknown): void {
    if (isAppError(err)) {
      this.context.stderr.write(`error[${err.code}]: ${err.message}\n`);
      if (err.issues.length > 1) {
        for (const issue of err.issues) this.context.stderr.write(`  - ${issue.key}: ${issue.message}\n`);
      }
      return;
    }
    const message = err instanceof Error ? err.message : String(err);
    this.context.stderr.write(`error[internal]: ${message}\n`);
  }
}

export { AppError };
