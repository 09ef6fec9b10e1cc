import { Command, Option } from 'clipanion';
import { routes, type SetRoleRequest, type UserChangeView, type UserRole } from '../../contracts/management.js';
import { managementClientFor } from '../management.js';
import { printChange } from '../user-change.js';
import { SvcCommand } from '../svc-command.js';

export class UserSetRoleCommand extends SvcCommand {
  static override paths = [['user', 'set-role']];
  static override usage = Command.Usage({
    category: 'Users',
    description: 'Set the service role of an account: root, admin or user',
    details: `
      \`admin\` may review signups and rooms and ban accounts of role \`user\` through the admin endpoints; \`root\` may also manage administrators and roles. The change applies from the account's next request. The last active root cannot be demoted: make another account root first.
    `,
    examples: [
      ['Make an administrator', '$0 user set-role bob admin'],
      ['Back to a plain user', '$0 user set-role bob user'],
    ],
  });

  user = Option.String({ required: true, name: 'user' });
  role = Option.String({ required: true, name: 'role' });
  json = Option.Boolean('--json', false, { description: 'Print JSON' });

  async run(): Promise<number> {
    const client = await managementClientFor(this.configFile());
    const body: SetRoleRequest = { role: this.role as UserRole };
    const change = await client.post<UserChangeView>(routes.userRole(this.user), body);
    printChange(this.context.stdout, change, this.json, change.changed ? `${change.user.username} is now ${change.user.role}` : `${change.user.username} already is ${change.user.role}`);
    return 0;
  }
}
