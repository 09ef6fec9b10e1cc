import { Command, Option } from 'clipanion';
import { routes, type SettingHistoryView } from '../../contracts/management.js';
import { redactSettingValue } from '../../settings/index.js';
import { managementClientFor } from '../management.js';
import { formatValue, parseOutputFormat, renderStructured, renderTable } from '../output.js';
import { SvcCommand } from '../svc-command.js';

export class SettingsHistoryCommand extends SvcCommand {
  static override paths = [['settings', 'history']];
  static override usage = Command.Usage({
    category: 'Runtime settings',
    description: 'Show who changed a runtime setting, when, and from which value',
    details: `
      Newest first. The old value of an entry is what a rollback writes back with \`svc settings update\`; "(default)" marks an old value that was the default because the key had never been written.
    `,
    examples: [['Last changes of a key', '$0 settings history server.maxRoomsPerUser --limit 10']],
  });

  key = Option.String({ required: true, name: 'key' });
  limit = Option.String('--limit', { description: 'How many entries (1..1000, default 50)' });
  output = Option.String('--output,-o', { description: 'table|json|yaml (default table)' });
  showSecrets = Option.Boolean('--show-secrets', false, { description: 'Show credential fields inside values' });

  async run(): Promise<number> {
    const format = parseOutputFormat(this.output, ['table', 'json', 'yaml'], 'table');
    const client = await managementClientFor(this.configFile());
    const path = `${routes.settingHistory(this.key)}${this.limit ? `?limit=${encodeURIComponent(this.limit)}` : ''}`;
    const { history } = await client.get<{ history: SettingHistoryView[] }>(path);
    const shown = history.map((entry) =>
      this.showSecrets
        ? entry
        : { ...entry, oldValue: redactSettingValue(entry.key, entry.oldValue), newValue: redactSettingValue(entry.key, entry.newValue) },
    );
    if (format !== 'table') {
      this.context.stdout.write(renderStructured(shown, format));
      return 0;
    }
    this.context.stdout.write(
      renderTable(
        ['changed at', 'by', 'source', 'old value', 'new value'],
        shown.map((entry) => [
          entry.changedAt,
          entry.changedBy,
          entry.source,
          `${formatValue(entry.oldValue)}${entry.oldIsDefault ? ' (default)' : ''}`,
          formatValue(entry.newValue),
        ]),
      ),
    );
    return 0;
  }
}
