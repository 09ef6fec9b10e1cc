import { Command, Option } from 'clipanion';
import { routes, type BanRequest, type UserChangeView } from '../../contracts/management.js';
import { managementClientFor } from '../management.js';
import { printChange } from '../user-change.js';
import { SvcCommand } from '../svc-command.js';

export class UserBanCommand extends SvcCommand {
  static override paths = [['user', 'ban']];
  static override usage = Command.Usage({
    category: 'Users',
    description: 'Ban an account: it is signed out everywhere at once and cannot sign in',
    details: `
      Sets the account's state to \`banned\` and revokes every session of it in the same transaction. Its next request is refused even with an access token that has not expired yet, and its refresh tokens no longer work. The reason goes to the service log with your name. The last active root cannot be banned.
    `,
    examples: [['Ban a spammer', '$0 user ban mallory --reason "spam in public rooms"']],
  });

  user = Option.String({ required: true, name: 'user' });
  reason = Option.String('--reason', { description: 'Why (written to the service log)' });
  json = Option.Boolean('--json', false, { description: 'Print JSON' });

  async run(): Promise<number> {
    const client = await managementClientFor(this.configFile());
    const body: BanRequest = this.reason !== undefined ? { reason: this.reason } : {};
    const change = await client.post<UserChangeView>(routes.userBan(this.user), body);
    printChange(this.context.stdout, change, this.json, change.changed ? `banned ${change.user.username}; ${change.revokedSessions} session(s) revoked` : `${change.user.username} was already banned`);
    return 0;
  }
}
