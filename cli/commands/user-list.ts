import { Command, Option } from 'clipanion';
import { routes, type UserListView } from '../../contracts/management.js';
import { managementClientFor } from '../management.js';
import { renderStructured, renderTable } from '../output.js';
import { SvcCommand } from '../svc-command.js';

export class UserListCommand extends SvcCommand {
  static override paths = [['user', 'list']];
  static override usage = Command.Usage({
    category: 'Users',
    description: 'List accounts, in username order',
    details: `
      One page of accounts (\`--limit\`, default 50, at most 200), filtered by service role, state, or the start of the username (\`--search\`, case-insensitive). When more follow, the last line gives the \`--cursor\` of the next page; \`--json\` prints \`{"users": [...], "nextCursor": "..."}\`.
    `,
    examples: [
      ['Every administrator', '$0 user list --role admin'],
      ['Banned accounts, as JSON', '$0 user list --state banned --json'],
    ],
  });

  role = Option.String('--role', { description: 'root|admin|user' });
  state = Option.String('--state', { description: 'active|banned' });
  search = Option.String('--search', { description: 'Usernames starting with this' });
  limit = Option.String('--limit', { description: 'How many (1..200, default 50)' });
  cursor = Option.String('--cursor', { description: 'Where the previous page ended' });
  json = Option.Boolean('--json', false, { description: 'Print JSON instead of a table' });

  async run(): Promise<number> {
    const client = await managementClientFor(this.configFile());
    const query = new URLSearchParams();
    for (const [key, value] of [['role', this.role], ['state', this.state], ['q', this.search], ['limit', this.limit], ['cursor', this.cursor]] as const) {
      if (value !== undefined) query.set(key, value);
    }
    const path = query.size > 0 ? `${routes.users}?${query.toString()}` : routes.users;
    const page = await client.get<UserListView>(path);
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
        page.users.map((user) => [user.username, user.id, user.role, user.state, user.createdAt, user.lastLoginAt ?? 'never']),
      ),
    );
    if (page.nextCursor) this.context.stdout.write(`more: --cursor ${page.nextCursor}\n`);
    return 0;
  }
}
