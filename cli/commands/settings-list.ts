import { Command, Option } from 'clipanion';
import { routes, type SettingView } from '../../contracts/management.js';
import { redactSettingValue } from '../../settings/index.js';
import { managementClientFor } from '../management.js';
import { fitRows, formatValue, parseOutputFormat, renderStructured, renderTable, terminalWidth } from '../output.js';
import { SvcCommand } from '../svc-command.js';

export class SettingsListCommand extends SvcCommand {
  static override paths = [['settings', 'list']];
  static override usage = Command.Usage({
    category: 'Runtime settings',
    description: 'List every runtime setting with its current value',
    details: `
      Shows each runtime setting (spec section 2.1) as the replica behind the management endpoint sees it: value, whether it is the default, its version and rule. OAuth2 client secrets and TURN credentials are hidden unless \`--show-secrets\` is given. The table shows every value whole: long values and rules are wrapped to the terminal's width (or \`COLUMNS\`), and with \`--wide\` each setting stays on one line, however long.
    `,
    examples: [
      ['As a table', '$0 settings list'],
      ['One line per setting', '$0 settings list --wide'],
      ['As JSON', '$0 settings list --output json'],
    ],
  });

  output = Option.String('--output,-o', { description: 'table|json|yaml (default table)' });
  showSecrets = Option.Boolean('--show-secrets', false, { description: 'Show credential fields inside values' });
  wide = Option.Boolean('--wide', false, { description: 'Do not wrap the table to the terminal width: one line per setting' });

  async run(): Promise<number> {
    const format = parseOutputFormat(this.output, ['table', 'json', 'yaml'], 'table');
    const client = await managementClientFor(this.configFile());
    const { settings } = await client.get<{ settings: SettingView[] }>(routes.settings);
    const shown = settings.map((view) => ({ ...view, value: this.showSecrets ? view.value : redactSettingValue(view.key, view.value) }));
    if (format !== 'table') {
      this.context.stdout.write(renderStructured(shown, format));
      return 0;
    }
    const head = ['key', 'value', 'default?', 'rule'];
    const rows = shown.map((view) => [view.key, formatValue(view.value), view.isDefault ? 'default' : `v${view.version}`, view.rule]);
    const width = this.wide ? undefined : terminalWidth(this.context.stdout);
    this.context.stdout.write(renderTable(head, width === undefined ? rows : fitRows(head, rows, width, [1, 3])));
    return 0;
  }
}
