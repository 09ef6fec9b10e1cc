import { Command, Option } from 'clipanion';
import { Document, isMap, isScalar } from 'yaml';
import { AppError } from '../../errors/index.js';
import { envName } from '../../config/index.js';
import { setValue } from '../../config/index.js';
import { generateSecrets, type GeneratedSecrets } from '../../config/index.js';
import { SvcCommand } from '../svc-command.js';

const FORMATS = ['env', 'yaml'] as const;
type SecretsFormat = (typeof FORMATS)[number];

// The token is only valid with a tcp:// management endpoint; with the default Unix socket
// configuration rejects it, so the output says so next to it.
const TOKEN_NOTE = 'management.token: only for a tcp:// management.endpoint; leave it out for the default Unix socket';

export class SecretsGenerateCommand extends SvcCommand {
  static override paths = [['secrets', 'generate']];

  static override usage = Command.Usage({
    category: 'Configuration',
    description: 'Generate fresh values for every startup secret',
    details: `
      Prints a new \`jwt.secret\` (48 random bytes, base64url), \`security.opaque_server_setup_secret\` (a new OPAQUE server setup), \`credential_encryption_key\` (32 random bytes, hex) and \`management.token\` (32 random bytes, base64url).

      Store them in your secret manager or secret files and keep them: replacing the OPAQUE setup invalidates every registered password, and replacing the credential key makes stored provider credentials unreadable. The management token is needed only with a \`tcp://\` management endpoint.

      \`--output env\` (default) prints \`SVC_*=value\` lines for an env file; \`--output yaml\` prints the nested YAML sections.
    `,
    examples: [
      ['Write an env file for the service', '$0 secrets generate > svc-secrets.env'],
      ['Print the secrets as YAML sections', '$0 secrets generate --output yaml'],
    ],
  });

  output = Option.String('--output,-o', 'env', { description: 'Output format: env or yaml' });

  async run(): Promise<number> {
    const format = this.output.toLowerCase() as SecretsFormat;
    if (!FORMATS.includes(format)) {
      throw AppError.invalid([{ key: '--output', message: `must be one of ${FORMATS.join(', ')} (got "${this.output}")` }]);
    }
    const secrets = await generateSecrets();
    this.context.stdout.write(format === 'env' ? asEnv(secrets) : asYaml(secrets));
    return 0;
  }
}

function entries(secrets: GeneratedSecrets): Array<[keyof GeneratedSecrets, string]> {
  return Object.entries(secrets) as Array<[keyof GeneratedSecrets, string]>;
}

function asEnv(secrets: GeneratedSecrets): string {
  return entries(secrets)
    .map(([key, value]) => (key === 'management.token' ? `# ${TOKEN_NOTE}\n` : '') + `${envName(key)}=${value}\n`)
    .join('');
}

function asYaml(secrets: GeneratedSecrets): string {
  const nested: Record<string, unknown> = {};
  for (const [key, value] of entries(secrets)) setValue(nested, key, value);
  const doc = new Document(nested);
  const management = isMap(doc.contents) ? doc.contents.items.find((pair) => isScalar(pair.key) && pair.key.value === 'management') : undefined;
  if (management && isScalar(management.key)) management.key.commentBefore = ` ${TOKEN_NOTE}`;
  return doc.toString({ lineWidth: 0 });
}
