import { Command, Option } from 'clipanion';
import { routes, type UserRecord } from '../../gateways/management/protocol.js';
import { managementClientFor } from '../management.js';
import { SvcCommand } from '../svc-command.js';

export class UserBanCommand extends SvcCommand {
  static override paths = [['user', 'ban']];
  static override usage = Command.Usage({
    category: 'Users',
    description: 'Ban an account: every session ends at once and sign-in is refused',
    examples: [['Ban alice', '$0 user ban alice']],
  });

  user = Option.String({ required: true, name: 'user' });

  async run(): Promise<number> {
    const client = await managementClientFor(this.configFile());
    const { user, revokedSessions } = await client.post<{ user: UserRecord; revokedSessions: number }>(routes.userBan(this.user), {});
    this.context.stdout.write(`banned ${user.username}; ${revokedSessions} session(s) ended\n`);
    return 0;
  }
}

export class UserUnbanCommand extends SvcCommand {
  static override paths = [['user', 'unban']];
  static override usage = Command.Usage({
    category: 'Users',
    description: 'Lift a ban (the user signs in again)',
    examples: [['Unban alice', '$0 user unban alice']],
  });

  user = Option.String({ required: true, name: 'user' });

  async run(): Promise<number> {
    const client = await managementClientFor(this.configFile());
    const user = await client.post<UserRecord>(routes.userUnban(this.user), {});
    this.context.stdout.write(`${user.username} is ${user.state}\n`);
    return 0;
  }
}
