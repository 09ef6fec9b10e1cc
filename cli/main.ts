#!/usr/bin/env node
import { Builtins, Cli } from 'clipanion';
import { commands } from './commands/index.js';
import { packageVersion } from '../observability/index.js';

const cli = new Cli({
  binaryLabel: 'svc — synchronized media rooms',
  binaryName: 'svc',
  binaryVersion: packageVersion(),
});
cli.register(Builtins.HelpCommand);
cli.register(Builtins.VersionCommand);
for (const command of commands) cli.register(command);

void cli.runExit(process.argv.slice(2));
