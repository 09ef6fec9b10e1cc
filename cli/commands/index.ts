import type { CommandClass } from 'clipanion';
import { ConfigShowCommand } from './config-show.js';
import { ConfigValidateCommand } from './config-validate.js';
import { MigrateCommand } from './migrate.js';
import { ReviewApproveCommand } from './review-approve.js';
import { ReviewListCommand } from './review-list.js';
import { ReviewRejectCommand } from './review-reject.js';
import { ReviewShowCommand } from './review-show.js';
import { SecretsGenerateCommand } from './secrets-generate.js';
import { ServeCommand } from './serve.js';
import { SettingsGetCommand } from './settings-get.js';
import { SettingsHistoryCommand } from './settings-history.js';
import { SettingsListCommand } from './settings-list.js';
import { SettingsUpdateCommand } from './settings-update.js';
import { SettingsWatchCommand } from './settings-watch.js';
import { SystemStatsCommand } from './system-stats.js';
import { UserBanCommand } from './user-ban.js';
import { UserCreateRootCommand } from './user-create-root.js';
import { UserListCommand } from './user-list.js';
import { UserResetPasswordCommand } from './user-reset-password.js';
import { UserSetRoleCommand } from './user-set-role.js';
import { UserShowCommand } from './user-show.js';
import { UserUnbanCommand } from './user-unban.js';
import { WatchCommand } from './watch.js';

export const commands: CommandClass[] = [
  ServeCommand,
  MigrateCommand,
  ConfigShowCommand,
  ConfigValidateCommand,
  SecretsGenerateCommand,
  SystemStatsCommand,
  SettingsListCommand,
  SettingsGetCommand,
  SettingsUpdateCommand,
  SettingsHistoryCommand,
  SettingsWatchCommand,
  ReviewListCommand,
  ReviewShowCommand,
  ReviewApproveCommand,
  ReviewRejectCommand,
  UserCreateRootCommand,
  UserListCommand,
  UserShowCommand,
  UserBanCommand,
  UserUnbanCommand,
  UserSetRoleCommand,
  UserResetPasswordCommand,
  WatchCommand,
];
