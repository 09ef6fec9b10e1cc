import type { FieldIssue } from '../errors/index.js';
import type { StartupKey } from './keys.js';

/** Where the effective value of a key came from. */
export type ConfigSource = 'default' | 'file' | 'secret_file' | 'env' | 'flag';

/**
 * One key set by one layer: either the value itself, or (`via: 'file'`) the path of a file
 * whose content is the value. `origin` names the setting for messages, e.g. `SVC_SERVER_PORT`
 * or `server.port in /etc/svc.yaml:4`.
 */
export interface Assignment {
  key: StartupKey;
  via: 'value' | 'file';
  raw: unknown;
  origin: string;
}

/** What one source (YAML file, environment, flags) contributes, before values are applied. */
export interface Layer {
  source: Exclude<ConfigSource, 'default' | 'secret_file'>;
  assignments: Assignment[];
  /** Structural problems of the source itself: unreadable file, parse errors, unknown keys. */
  issues: FieldIssue[];
}
