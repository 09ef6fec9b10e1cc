import { Command, Option } from 'clipanion';
import { routes, type CreateRootRequest, type UserRecord } from '../../gateways/management/protocol.js';
import { managementClientFor } from '../management.js';
import { readPassword } from '../password-input.js';
import { SvcCommand } from '../svc-command.js';

export class UserCreateRootCommand extends SvcCommand {
  static override paths = [['user', 'create-root']];
  static override usage = Command.Usage({
    category: 'Users',
    description: 'Create the first administrator (a root account with a password)',
    details: `
      Asks for the password twice without echoing it; with \`--password-stdin\`, or when stdin is not a terminal, reads it from stdin (one line). Refused while a root account exists, unless \`--allow-additional\` says another one is meant.
    `,
    examples: [
      ['Interactively', '$0 user create-root --username admin'],
      ['From a script', 'printf %s "$ADMIN_PASSWORD" | $0 user create-root --username admin --password-stdin'],
    ],
  });

  username = Option.String('--username', { required: true, description: 'Username of the root account' });
  passwordStdin = Option.Boolean('--password-stdin', false, { description: 'Read the password from stdin' });
  allowAdditional = Option.Boolean('--allow-additional', false, { description: 'Create it even though a root account exists' });

  async run(): Promise<number> {
    const client = await managementClientFor(this.configFile());
    const password = await readPassword({ stdin: this.context.stdin, stderr: this.context.stderr, fromStdin: this.passwordStdin, what: 'Password' });
    const body: CreateRootRequest = { username: this.username, password, ...(this.allowAdditional ? { allowAdditional: true } : {}) };
    const user = await client.post<UserRecord>(routes.users, body);
    this.context.stdout.write(`created root account ${user.username} (${user.id})\n`);
    return 0;
  }
}
