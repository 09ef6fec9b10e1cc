/**
 * The configuration the registry's defaults make (config/registry.ts): what a process loads with
 * no file, environment or flags (before `data_dir` is made absolute). Code and tests that hand a
 * module a section of the configuration start from it and set only what they mean, so a key
 * added to the registry is not one more field to write in each of them.
 */
import { STARTUP_KEYS } from './keys.js';
import { buildConfig } from './paths.js';
import type { StartupConfig } from './types.js';

/** A fresh configuration of defaults on each call (lists are copies; some defaults depend on the host). */
export function defaultConfig(): StartupConfig {
  return buildConfig(new Map(STARTUP_KEYS.map((key) => [key.key, key.defaultValue()])));
}
