import { Command, Option } from 'clipanion';
import { AppError } from '../../errors/index.js';
import { routes, type UpdateSettingsAnswer, type UpdateSettingsRequest } from '../../contracts/management.js';
import { redactSettingValue } from '../../settings/index.js';
import { managementClientFor } from '../management.js';
import { formatValue } from '../output.js';
import { SvcCommand } from '../svc-command.js';

export class SettingsUpdateCommand extends SvcCommand {
  static override paths = [['settings', 'update']];
  static override usage = Command.Usage({
    category: 'Runtime settings',
    description: 'Write one or more runtime settings of a group in one transaction',
    details: `
      \`<group>\` is the first segment of the keys and each \`--set <name>=<value>\` names the rest (group \`user\`, name \`enablePasswordSignup\`). All values are validated first; if any is rejected nothing is written and every rejected key is reported. The write is one PostgreSQL transaction that also records the old values in the history (\`svc settings history <key>\`), and every replica picks the change up through LISTEN/NOTIFY.

      Booleans are \`true\`/\`false\`; integers are plain decimals; a JSON value (\`oauth2.providers\`, \`webrtc.externalIceServers\`, \`cors.allowedOrigins\`, permission arrays) is one quoted argument. Rollback: run this command again with the old value shown by \`svc settings get\` or \`svc settings history\`.
    `,
    examples: [
      ['Enable password signup behind review', '$0 settings update user --set enablePasswordSignup=true --set passwordSignupNeedReview=true'],
      ['Change a limit', '$0 settings update server --set maxRoomsPerUser=20'],
      ['Set a JSON value', `$0 settings update permissions --set 'guestDefaultPermissions=["view_member_list","view_chat_history"]'`],
    ],
  });

  group = Option.String({ required: true, name: 'group' });
  sets = Option.Array('--set', { required: true, description: '<name>=<value>, repeatable' });

  async run(): Promise<number> {
    const request: UpdateSettingsRequest = { set: {} };
    for (const assignment of this.sets) {
      const at = assignment.indexOf('=');
      const name = at > 0 ? assignment.slice(0, at).trim() : '';
      if (!name) {
        throw AppError.invalid([{ key: '--set', message: `"${assignment}" is not of the form <name>=<value>` }]);
      }
      if (name in request.set) {
        throw AppError.invalid([{ key: `${this.group}.${name}`, message: 'is set more than once' }]);
      }
      request.set[name] = assignment.slice(at + 1);
    }
    const client = await managementClientFor(this.configFile());
    const { changes, oauth2IssuerChanges } = await client.patch<UpdateSettingsAnswer>(routes.settingsGroup(this.group), request);
    if (changes.length === 0) {
      this.context.stdout.write('no change: every value was already set\n');
      return 0;
    }
    for (const change of changes) {
      const before = formatValue(redactSettingValue(change.key, change.oldValue));
      const after = formatValue(redactSettingValue(change.key, change.newValue));
      this.context.stdout.write(`${change.key}: ${before} -> ${after} (version ${change.version})\n`);
    }
    for (const issuerChange of oauth2IssuerChanges) this.context.stdout.write(`warning: ${issuerChange.message}\n`);
    return 0;
  }
}
