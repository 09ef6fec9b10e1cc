import { STARTUP_KEYS } from './keys.js';
import { getValue, setValue } from './paths.js';
import { REDACTED, redactUrlList } from './redact-url.js';
import type { StartupConfig } from './types.js';

export { REDACTED, redactUrl, redactUrlList } from './redact-url.js';

/**
 * A copy of the configuration that is safe to print or log: every non-empty secret becomes
 * "[redacted]", and URLs keep everything but their password. Which keys are secret is the
 * registry's `sensitivity` (config/registry.ts).
 */
export function redactConfig(config: StartupConfig): StartupConfig {
  const copy = structuredClone(config);
  const target = copy as unknown as Record<string, unknown>;
  for (const key of STARTUP_KEYS) {
    const value = getValue(config, key.key);
    // Lists of secrets (former keys kept for a rotation) hide each entry, keeping the count.
    if (Array.isArray(value) && key.sensitivity === 'value') {
      setValue(target, key.key, value.map(() => REDACTED));
      continue;
    }
    if (typeof value !== 'string' || value === '') continue;
    if (key.sensitivity === 'value') setValue(target, key.key, REDACTED);
    else if (key.sensitivity === 'url_credentials') setValue(target, key.key, redactUrlList(value));
  }
  return copy;
}
