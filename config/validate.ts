/**
 * Every rule the server enforces before it starts: each key's own checks, from its row in the
 * registry (config/registry.ts), then the rules between keys (config/cross-key-rules.ts). All
 * rules run, so one attempt shows every problem; the result is in key order (spec: the first
 * error is the one to act on).
 */
import type { FieldIssue } from '../errors/index.js';
import { CROSS_KEY_RULES } from './cross-key-rules.js';
import { keyOrder, STARTUP_KEYS, type StartupKeyName } from './keys.js';
import { getValue } from './paths.js';
import type { StartupConfig } from './types.js';

export async function validateConfig(config: StartupConfig): Promise<FieldIssue[]> {
  const own = await Promise.all(
    STARTUP_KEYS.map(async (key) => (await key.problems(getValue(config, key.key))).map((message): FieldIssue => ({ key: key.key, message }))),
  );
  const failed = new Set<string>(own.flat().map((issue) => issue.key));
  const passed = (key: StartupKeyName): boolean => !failed.has(key);
  const related = await Promise.all(CROSS_KEY_RULES.map((rule) => Promise.resolve(rule.check(config, passed))));

  const seen = new Set<string>();
  const unique = [...own.flat(), ...related.flat()].filter((issue) => {
    const id = `${issue.key}\u0000${issue.message}`;
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
  // Array.prototype.sort is stable: a key's own problems stay ahead of those a cross-key rule found.
  return unique.sort((a, b) => keyOrder(a.key) - keyOrder(b.key));
}

// The server (listen) and the CLI (connect) resolve the endpoint with the same rules.
export { resolveManagementEndpoint } from './management-endpoint.js';
