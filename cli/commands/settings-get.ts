import { SvcCommand } from '../svc-command.js';

// PLACEHOLDER while the foundation is being built; replaced by the real command.
export class SettingsGetCommand extends SvcCommand {
  static override paths = [['settings', 'get']];
  async run(): Promise<number> {
    throw new Error('not implemented yet');
  }
}
