import { SvcCommand } from '../svc-command.js';

// PLACEHOLDER while the foundation is being built; replaced by the real command.
export class SettingsHistoryCommand extends SvcCommand {
  static override paths = [['settings', 'history']];
  async run(): Promise<number> {
    throw new Error('not implemented yet');
  }
}
