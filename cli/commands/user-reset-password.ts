import { Command, Option } from 'clipanion';
import { routes, type OpaqueRegistrationRequest, type OpaqueRegistrationView, type ResetPasswordRequest, type UserChangeView, type UserDetailView } from '../../contracts/management.js';
import { managementClientFor } from '../management.js';
import { opaqueRecordFor } from '../opaque-registration.js';
import { readNewPassword } from '../password-input.js';
import { printChange } from '../user-change.js';
import { SvcCommand } from '../svc-command.js';

export class UserResetPasswordCommand extends SvcCommand {
  static override paths = [['user', 'reset-password']];
  static override usage = Command.Usage({
    category: 'Users',
    description: 'Set a new password for an account and sign it out everywhere',
    details: `
      The password is asked twice without echo at a terminal, or read from the first line of stdin (\`--password-stdin\`, or whenever stdin is not a terminal). The CLI runs the client side of OPAQUE itself, so the password never leaves it: the service stores the new OPAQUE record, and the user signs in with the web page's Sign in button (or the direct password transport). Every session of the account ends; two-factor stays as it was.
    `,
    examples: [
      ['At a terminal', '$0 user reset-password alice'],
      ['From a script', 'printf "%s\\n" "$NEW_PASSWORD" | $0 user reset-password alice --password-stdin'],
    ],
  });

  user = Option.String({ required: true, name: 'user' });
  passwordStdin = Option.Boolean('--password-stdin', false, { description: 'Read the password from the first line of stdin' });
  json = Option.Boolean('--json', false, { description: 'Print JSON' });

  async run(): Promise<number> {
    const client = await managementClientFor(this.configFile());
    const password = await readNewPassword(this.context, { fromStdin: this.passwordStdin, prompt: `New password for ${this.user}: ` });
    // The password rules compare with the username, which the operator may have given as an id.
    const { user } = await client.get<UserDetailView>(routes.user(this.user));
    const registrationRecord = await opaqueRecordFor(password, user.username, (registrationRequest) =>
      client.post<OpaqueRegistrationView>(routes.userResetPasswordOpaque(this.user), { registrationRequest } satisfies OpaqueRegistrationRequest),
    );
    const body: ResetPasswordRequest = { registrationRecord };
    const change = await client.post<UserChangeView>(routes.userResetPassword(this.user), body);
    printChange(this.context.stdout, change, this.json, `password of ${change.user.username} reset; ${change.revokedSessions} session(s) revoked`);
    return 0;
  }
}
