import { Command, Option } from 'clipanion';
import { AppError } from '../../errors/index.js';
import { STARTUP_KEYS, type Sensitivity } from '../../config/index.js';
import { readConfig } from '../../config/index.js';
import { redactConfig } from '../../config/index.js';
import { CONFIG_FORMATS, renderConfig, type ConfigFormat } from '../../config/index.js';
import { validateConfig } from '../../config/index.js';
import { SvcCommand } from '../svc-command.js';

// Named from the registry (config/registry.ts), so the list cannot miss a secret key.
const keysOf = (sensitivity: Sensitivity): string => listInWords(STARTUP_KEYS.filter((key) => key.sensitivity === sensitivity).map((key) => `\`${key.key}\``));
const SECRETS = keysOf('value');
const URLS_WITH_PASSWORDS = keysOf('url_credentials');

function listInWords(items: readonly string[]): string {
  return items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)!}`;
}

export class ConfigShowCommand extends SvcCommand {
  static override paths = [['config', 'show']];

  static override usage = Command.Usage({
    category: 'Configuration',
    description: 'Print the effective startup configuration',
    details: `
      Merges the defaults, the YAML file (\`--config\` or \`SVC_CONFIG\`), secret files, \`SVC_*\` environment variables and flags, and prints the result.

      Secrets (${SECRETS}, and the passwords inside ${URLS_WITH_PASSWORDS}) are shown as \`[redacted]\` unless \`--show-secrets\` is given.

      The configuration is printed even when it would not pass \`svc config validate\`; a note on stderr says so. The command fails only when the configuration cannot be read (an unreadable or malformed file, an unknown key, a value of the wrong type).
    `,
    examples: [
      ['Show the effective configuration as YAML', '$0 config show --config /etc/svc/config.yaml'],
      ['Show it as JSON, secrets included', '$0 config show --output json --show-secrets'],
    ],
  });

  output = Option.String('--output,-o', 'yaml', { description: 'Output format: yaml or json' });

  showSecrets = Option.Boolean('--show-secrets', false, { description: 'Print secret values instead of [redacted]' });

  async run(): Promise<number> {
    const format = this.output.toLowerCase() as ConfigFormat;
    if (!CONFIG_FORMATS.includes(format)) {
      throw AppError.invalid([{ key: '--output', message: `must be one of ${CONFIG_FORMATS.join(', ')} (got "${this.output}")` }]);
    }
    const loaded = await readConfig({ file: this.configFile() });
    if (loaded.issues.length > 0) throw AppError.invalid(loaded.issues);

    const shown = this.showSecrets ? loaded.config : redactConfig(loaded.config);
    this.context.stdout.write(renderConfig(shown, format));

    const problems = (await validateConfig(loaded.config)).length;
    if (problems > 0) {
      this.context.stderr.write(
        `note: this configuration has ${problems} validation issue${problems === 1 ? '' : 's'}; run \`svc config validate\` to list them\n`,
      );
    }
    return 0;
  }
}
