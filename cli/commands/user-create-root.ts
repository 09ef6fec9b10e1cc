import { Command, Option } from 'clipanion';
import { routes, type CreateRootOpaqueRequest, type CreateRootRequest, type OpaqueRegistrationView, type UserView } from '../../contracts/management.js';
import { managementClientFor } from '../management.js';
import { opaqueRecordFor } from '../opaque-registration.js';
import { renderStructured } from '../output.js';
import { readNewPassword } from '../password-input.js';
import { SvcCommand } from '../svc-command.js';

export class UserCreateRootCommand extends SvcCommand {
  static override paths = [['user', 'create-root']];
  static override usage = Command.Usage({
    category: 'Users',
    description: 'Create the first administrator (role root)',
    details: `
      Creates an active account with the service role \`root\` and a password, through the management endpoint of a running \`svc serve\`. The CLI runs the client side of OPAQUE itself, so the password never leaves it: the service stores the OPAQUE record. At a terminal the password is asked twice without echo; a script pipes it in on stdin (\`--password-stdin\`, or whenever stdin is not a terminal). It is never an argument, which \`ps\` and shell history would show.

      Refused when any root exists, unless \`--allow-additional\` is given. The root signs in with the web page's Sign in button (or \`POST /api/auth/password/login\` from a client that cannot run OPAQUE), whatever the signup settings say.
    `,
    examples: [
      ['At a terminal', '$0 user create-root --username alice'],
      ['From a script', 'printf "%s\\n" "$ROOT_PASSWORD" | $0 user create-root --username alice --password-stdin'],
    ],
  });

  username = Option.String('--username', { required: true, description: 'The new root\'s username' });
  passwordStdin = Option.Boolean('--password-stdin', false, { description: 'Read the password from the first line of stdin' });
  allowAdditional = Option.Boolean('--allow-additional', false, { description: 'Create it even though a root exists' });
  json = Option.Boolean('--json', false, { description: 'Print the new user as JSON' });

  async run(): Promise<number> {
    const client = await managementClientFor(this.configFile());
    const password = await readNewPassword(this.context, { fromStdin: this.passwordStdin, prompt: `Password for ${this.username}: ` });
    const registrationRecord = await opaqueRecordFor(password, this.username, (registrationRequest) =>
      client.post<OpaqueRegistrationView>(routes.userCreateRootOpaque, { username: this.username, registrationRequest } satisfies CreateRootOpaqueRequest),
    );
    const body: CreateRootRequest = { username: this.username, registrationRecord, ...(this.allowAdditional ? { allowAdditional: true } : {}) };
    const user = await client.post<UserView>(routes.userCreateRoot, body);
    this.context.stdout.write(this.json ? renderStructured(user, 'json') : `created root ${user.username} (${user.id})\n`);
    return 0;
  }
}
