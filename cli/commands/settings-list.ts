import { Command, Option } from 'clipanion';
import { routes, type SettingView } from '../../gateways/management/protocol.js';
import { redactSettingValue } from '../../settings/secret-fields.js';
import { managementClientFor } from '../management.js';
import { formatValue, parseOutputFormat, renderStructured, renderTable, truncate } from '../output.js';
import { SvcCommand } from '../svc-command.js';

export class SettingsListCommand extends SvcCommand {
  static override paths = [['settings', 'list']];
  static override usage = Command.Usage({
    category: 'Runtime settings',
    description: 'List every runtime setting with its current value',
    details: `
      Shows each runtime setting (spec section 2.1) as the replica behind the management endpoint sees it: value, whether it is the default, its version and rule. OAuth2 client secrets and TURN credentials are hidden unless \`--show-secrets\` is given. The table shortens long values; \`--output json\` shows them whole.
    `,
    examples: [
      ['As a table', '$0 settings list'],
      ['As JSON', '$0 settings list --output json'],
    ],
  });

  output = Option.String('--output,-o', { description: 'table|json|yaml (default table)' });
  showSecrets = Option.Boolean('--show-secrets', false, { description: 'Show credential fields inside values' });

  async run(): Promise<number> {
    const format = parseOutputFormat(this.output, ['table', 'json', 'yaml'], 'table');
    const client = await managementClientFor(this.configFile());
    const { settings } = await client.get<{ settings: SettingView[] }>(routes.settings);
    const shown = settings.map((view) => ({ ...view, value: this.showSecrets ? view.value : redactSettingValue(view.key, view.value) }));
    if (format !== 'table') {
      this.context.stdout.write(renderStructured(shown, format));
      return 0;
    }
    this.context.stdout.write(
      renderTable(
        ['key', 'value', 'default?', 'rule'],
        shown.map((view) => [view.key, truncate(formatValue(view.value)), view.isDefault ? 'default' : `v${view.version}`, truncate(view.rule)]),
      ),
    );
    return 0;
  }
}
