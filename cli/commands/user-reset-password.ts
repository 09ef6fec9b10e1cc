import { Command, Option } from 'clipanion';
import { routes, type UserRecord } from '../../gateways/management/protocol.js';
import { managementClientFor } from '../management.js';
import { readPassword } from '../password-input.js';
import { SvcCommand } from '../svc-command.js';

export class UserResetPasswordCommand extends SvcCommand {
  static override paths = [['user', 'reset-password']];
  static override usage = Command.Usage({
    category: 'Users',
    description: "Set a new password for an account and end all of its sessions",
    details: `
      Reads the password like \`create-root\` (no echo, or stdin). It is stored as an Argon2id hash; the user moves back to OPAQUE by changing it after signing in.
    `,
    examples: [['Reset alice', '$0 user reset-password alice']],
  });

  user = Option.String({ required: true, name: 'user' });
  passwordStdin = Option.Boolean('--password-stdin', false, { description: 'Read the password from stdin' });

  async run(): Promise<number> {
    const client = await managementClientFor(this.configFile());
    const password = await readPassword({ stdin: this.context.stdin, stderr: this.context.stderr, fromStdin: this.passwordStdin, what: 'New password' });
    const { user, revokedSessions } = await client.post<{ user: UserRecord; revokedSessions: number }>(routes.userPassword(this.user), { password });
    this.context.stdout.write(`password of ${user.username} set; ${revokedSessions} session(s) ended\n`);
    return 0;
  }
}
