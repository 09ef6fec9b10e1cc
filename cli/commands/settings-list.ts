import { SvcCommand } from '../svc-command.js';

// PLACEHOLDER while the foundation is being built; replaced by the real command.
export class SettingsListCommand extends SvcCommand {
  static override paths = [['settings', 'list']];
  async run(): Promise<number> {
    throw new Error('not implemented yet');
  }
}
