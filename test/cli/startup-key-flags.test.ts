/**
 * `svc serve`'s options that set startup keys come from the registry's rows (config/registry.ts):
 * each row with a flag is an option, and a given option reaches the flag layer under its key.
 */
import test from 'ava';
import { Cli } from 'clipanion';
import { STARTUP_KEYS } from '../../config/keys.js';
import { ServeCommand } from '../../cli/commands/serve.js';
import { startupKeyFlagValues } from '../../cli/startup-key-flags.js';

function parse(args: string[]): ServeCommand {
  const cli = new Cli({ binaryName: 'svc' });
  cli.register(ServeCommand);
  return cli.process(['serve', ...args]) as ServeCommand;
}

test('every flag of the registry is an option of svc serve, and a given one sets its key', (t) => {
  const flagged = STARTUP_KEYS.filter((key) => key.flag !== undefined);
  t.deepEqual(
    flagged.map((key) => key.flag?.name),
    ['--data-dir', '--replica-id', '--log-level', '--host', '--http-port', '--database-url', '--management-endpoint'],
  );
  const command = parse(['--http-port', '8081', '--replica-id', 'r1', '--role', 'gateway']);
  t.deepEqual(startupKeyFlagValues(command), { replica_id: 'r1', 'server.port': '8081' });
  t.deepEqual(command.roles, ['gateway']);
  t.deepEqual(startupKeyFlagValues(parse([])), {});
});
