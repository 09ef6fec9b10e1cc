import { Command, Option } from 'clipanion';
import { routes, type UserRecord } from '../../gateways/management/protocol.js';
import { managementClientFor } from '../management.js';
import { SvcCommand } from '../svc-command.js';

export class UserSetRoleCommand extends SvcCommand {
  static override paths = [['user', 'set-role']];
  static override usage = Command.Usage({
    category: 'Users',
    description: 'Set the service role of an account: root, admin or user',
    details: `The last root account keeps its role: make another account root first.`,
    examples: [['Make alice an admin', '$0 user set-role alice admin']],
  });

  user = Option.String({ required: true, name: 'user' });
  role = Option.String({ required: true, name: 'role' });

  async run(): Promise<number> {
    const client = await managementClientFor(this.configFile());
    const user = await client.put<UserRecord>(routes.userRole(this.user), { role: this.role });
    this.context.stdout.write(`${user.username} is ${user.role}\n`);
    return 0;
  }
}
