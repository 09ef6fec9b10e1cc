import { stringify } from 'yaml';
import type { StartupConfig } from './types.js';

export type ConfigFormat = 'yaml' | 'json';

export const CONFIG_FORMATS: readonly ConfigFormat[] = ['yaml', 'json'];

/** The configuration as a file could hold it: `config show` output can be fed back in. */
export function renderConfig(config: StartupConfig, format: ConfigFormat): string {
  if (format === 'json') return JSON.stringify(config, null, 2) + '\n';
  // No line folding: a secret or URL stays on one line, easy to copy. The library quotes
  // strings such as "0123" or "true" that would otherwise read back as another type.
  return stringify(config, { lineWidth: 0 });
}
