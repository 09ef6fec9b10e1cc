import type { ConfigValue, StartupKeyName } from './keys.js';
import type { StartupConfig } from './types.js';

/**
 * Dotted-key access to the nested `StartupConfig`. The key table guarantees that every
 * `StartupKeyName` is a leaf of the type, which is why the casts here are sound.
 */
export function getValue(config: StartupConfig, key: StartupKeyName): ConfigValue {
  let node: unknown = config;
  for (const part of key.split('.')) node = (node as Record<string, unknown>)[part];
  return node as ConfigValue;
}

export function setValue(target: Record<string, unknown>, key: StartupKeyName, value: ConfigValue): void {
  const parts = key.split('.');
  const last = parts.pop()!;
  let node = target;
  for (const part of parts) {
    node[part] ??= {};
    node = node[part] as Record<string, unknown>;
  }
  node[last] = value;
}

/** Builds the nested configuration from one value per key. */
export function buildConfig(values: ReadonlyMap<StartupKeyName, ConfigValue>): StartupConfig {
  const target: Record<string, unknown> = {};
  for (const [key, value] of values) setValue(target, key, value);
  return target as unknown as StartupConfig;
}
