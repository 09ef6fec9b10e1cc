import { Command, Option } from 'clipanion';
import { routes, type UserRecord } from '../../gateways/management/protocol.js';
import { managementClientFor } from '../management.js';
import { renderStructured, renderTable } from '../output.js';
import { SvcCommand } from '../svc-command.js';

export class UserListCommand extends SvcCommand {
  static override paths = [['user', 'list']];
  static override usage = Command.Usage({
    category: 'Users',
    description: 'List accounts in username order',
    examples: [
      ['Banned accounts', '$0 user list --state banned'],
      ['The next page', '$0 user list --after <last username of the previous page>'],
    ],
  });

  role = Option.String('--role', { description: 'root|admin|user' });
  state = Option.String('--state', { description: 'active|banned' });
  prefix = Option.String('--prefix', { description: 'Usernames starting with this' });
  after = Option.String('--after', { description: 'Continue after this username (paging)' });
  limit = Option.String('--limit', { description: 'How many (1..500, default 100)' });
  json = Option.Boolean('--json', false, { description: 'Print JSON instead of a table' });

  async run(): Promise<number> {
    const client = await managementClientFor(this.configFile());
    const query = new URLSearchParams();
    for (const [key, value] of [['role', this.role], ['state', this.state], ['prefix', this.prefix], ['after', this.after], ['limit', this.limit]] as const) {
      if (value !== undefined) query.set(key, value);
    }
    const page = await client.get<{ users: UserRecord[]; next?: string }>(query.size > 0 ? `${routes.users}?${query.toString()}` : routes.users);
    if (this.json) {
      this.context.stdout.write(renderStructured(page, 'json'));
      return 0;
    }
    if (page.users.length === 0) {
      this.context.stdout.write('no users match\n');
      return 0;
    }
    this.context.stdout.write(
      renderTable(
        ['username', 'id', 'role', 'state', 'created', 'last login'],
        page.users.map((user) => [user.username, user.id, user.role, user.state, user.createdAt, user.lastLoginAt ?? '-']),
      ),
    );
    if (page.next) this.context.stdout.write(`more: --after ${page.next}\n`);
    return 0;
  }
}
