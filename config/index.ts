/**
 * The public surface of config/: what code outside config/ may import (lint refuses a deeper
 * import; tests may reach inside). docs/2026-11-29-public-surfaces.md.
 */
export { STARTUP_KEYS, envName, type Sensitivity, type StartupKey } from './keys.js';
export { loadConfig, readConfig, requireValid } from './load.js';
export { resolveManagementEndpoint } from './management-endpoint.js';
export { setValue } from './paths.js';
export { redactConfig } from './redact.js';
export { CONFIG_FORMATS, renderConfig, type ConfigFormat } from './render.js';
export { generateSecrets, type GeneratedSecrets } from './secrets.js';
export { type ManagementEndpoint, type StartupConfig } from './types.js';
export { validateConfig } from './validate.js';
