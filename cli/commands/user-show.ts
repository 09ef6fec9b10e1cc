import { Command, Option } from 'clipanion';
import { routes, type UserDetailView } from '../../contracts/management.js';
import { managementClientFor } from '../management.js';
import { renderStructured } from '../output.js';
import { SvcCommand } from '../svc-command.js';

export class UserShowCommand extends SvcCommand {
  static override paths = [['user', 'show']];
  static override usage = Command.Usage({
    category: 'Users',
    description: 'Show one account: role, state, what it signs in with, its sessions',
    details: `
      \`<user>\` is a username or a user id. Credentials are described by kind (an OPAQUE or Argon2id password, how many passkeys, which OAuth2 providers, whether two-factor is on), never by content.
    `,
    examples: [
      ['By username', '$0 user show alice'],
      ['As JSON', '$0 user show alice --json'],
    ],
  });

  user = Option.String({ required: true, name: 'user' });
  json = Option.Boolean('--json', false, { description: 'Print JSON' });

  async run(): Promise<number> {
    const client = await managementClientFor(this.configFile());
    const view = await client.get<UserDetailView>(routes.user(this.user));
    this.context.stdout.write(this.json ? renderStructured(view, 'json') : describeUser(view));
    return 0;
  }
}

/** `label: value` lines. */
export function describeUser(view: UserDetailView): string {
  const { user, credentials, twoFactor } = view;
  const lines: Array<[string, string]> = [
    ['username', user.username],
    ['id', user.id],
    ['display name', user.displayName],
    ['email', user.email ?? '-'],
    ['role', user.role],
    ['state', user.state],
    ['created', user.createdAt],
    ['last login', user.lastLoginAt ?? 'never'],
    ['password', credentials.password ?? 'none'],
    ['passkeys', String(credentials.passkeys)],
    ['oauth2', credentials.oauth2.length > 0 ? credentials.oauth2.join(', ') : 'none'],
    ['two-factor', twoFactor.enabled ? `on (${twoFactor.recoveryCodesLeft} recovery codes left)` : 'off'],
    ['sessions', String(view.liveSessions)],
  ];
  const width = Math.max(...lines.map(([label]) => label.length)) + 1;
  return lines.map(([label, value]) => `${`${label}:`.padEnd(width)} ${value}\n`).join('');
}
