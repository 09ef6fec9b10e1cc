import { Command, Option } from 'clipanion';
import { routes, type UserChangeView } from '../../contracts/management.js';
import { managementClientFor } from '../management.js';
import { printChange } from '../user-change.js';
import { SvcCommand } from '../svc-command.js';

export class UserUnbanCommand extends SvcCommand {
  static override paths = [['user', 'unban']];
  static override usage = Command.Usage({
    category: 'Users',
    description: 'Lift a ban: the account may sign in again',
    details: `
      Sessions the ban ended stay ended; the user signs in again.
    `,
    examples: [['Unban', '$0 user unban mallory']],
  });

  user = Option.String({ required: true, name: 'user' });
  json = Option.Boolean('--json', false, { description: 'Print JSON' });

  async run(): Promise<number> {
    const client = await managementClientFor(this.configFile());
    const change = await client.post<UserChangeView>(routes.userUnban(this.user), {});
    printChange(this.context.stdout, change, this.json, change.changed ? `unbanned ${change.user.username}` : `${change.user.username} was not banned`);
    return 0;
  }
}
