import { Command } from 'clipanion';
import { loadConfig } from '../../config/index.js';
import { SvcCommand } from '../svc-command.js';

export class ConfigValidateCommand extends SvcCommand {
  static override paths = [['config', 'validate']];

  static override usage = Command.Usage({
    category: 'Configuration',
    description: 'Check the startup configuration as `svc serve` would',
    details: `
      Loads the configuration from the same sources as \`svc serve\` (defaults, the YAML file given by \`--config\` or \`SVC_CONFIG\`, secret files, \`SVC_*\` environment variables) and applies every startup rule: secret strength, OPAQUE setup, credential key format, WebAuthn origin and RP ID, CORS origins, management endpoint and token, URLs and ports.

      On success it prints \`configuration is valid\` and exits 0. Otherwise it prints every issue as \`key: message\` on stderr, one per line, and exits 1. Later issues are often consequences of the first; act on the first one.
    `,
    examples: [
      ['Validate a configuration file', '$0 config validate --config /etc/svc/config.yaml'],
      ['Validate environment-only configuration', 'SVC_JWT_SECRET_FILE=/run/secrets/jwt $0 config validate'],
    ],
  });

  async run(): Promise<number> {
    const { issues } = await loadConfig({ file: this.configFile() });
    if (issues.length === 0) {
      this.context.stdout.write('configuration is valid\n');
      return 0;
    }
    for (const issue of issues) this.context.stderr.write(`${issue.key}: ${issue.message}\n`);
    return 1;
  }
}
