import { Command, Option } from 'clipanion';
import { routes, type SettingView } from '../../contracts/management.js';
import { redactSettingValue } from '../../settings/index.js';
import { managementClientFor } from '../management.js';
import { formatValue, parseOutputFormat, renderStructured } from '../output.js';
import { SvcCommand } from '../svc-command.js';

export class SettingsGetCommand extends SvcCommand {
  static override paths = [['settings', 'get']];
  static override usage = Command.Usage({
    category: 'Runtime settings',
    description: 'Show the current value of one runtime setting',
    details: `
      Prints the value in the text form \`svc settings update\` accepts, so it can be kept for a rollback. \`--output json|yaml\` adds the version, who changed it last and when.
    `,
    examples: [
      ['Read a value', '$0 settings get server.maxRoomsPerUser'],
      ['With metadata', '$0 settings get oauth2.providers --output json --show-secrets'],
    ],
  });

  key = Option.String({ required: true, name: 'key' });
  output = Option.String('--output,-o', { description: 'value|json|yaml (default value)' });
  showSecrets = Option.Boolean('--show-secrets', false, { description: 'Show credential fields inside the value' });

  async run(): Promise<number> {
    const client = await managementClientFor(this.configFile());
    const view = await client.get<SettingView>(routes.setting(this.key));
    const shown = { ...view, value: this.showSecrets ? view.value : redactSettingValue(view.key, view.value) };
    if (this.output === undefined || this.output === 'value') {
      this.context.stdout.write(`${formatValue(shown.value)}\n`);
      return 0;
    }
    const format = parseOutputFormat(this.output, ['json', 'yaml'], 'json') as 'json' | 'yaml';
    this.context.stdout.write(renderStructured(shown, format));
    return 0;
  }
}
