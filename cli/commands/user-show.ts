import { Command, Option } from 'clipanion';
import { routes, type UserRecord } from '../../gateways/management/protocol.js';
import { managementClientFor } from '../management.js';
import { renderStructured } from '../output.js';
import { SvcCommand } from '../svc-command.js';

export class UserShowCommand extends SvcCommand {
  static override paths = [['user', 'show']];
  static override usage = Command.Usage({
    category: 'Users',
    description: 'One account: role, state, which credentials it has, active sessions (never a secret)',
    examples: [['By username', '$0 user show alice']],
  });

  user = Option.String({ required: true, name: 'user' });
  json = Option.Boolean('--json', false, { description: 'Print JSON' });

  async run(): Promise<number> {
    const client = await managementClientFor(this.configFile());
    const user = await client.get<UserRecord>(routes.user(this.user));
    this.context.stdout.write(renderStructured(user, this.json ? 'json' : 'yaml'));
    return 0;
  }
}
