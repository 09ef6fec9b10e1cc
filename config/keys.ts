/**
 * The registry's rows (config/registry.ts) as the rest of config/ reads them: each with its
 * dotted name, in documented order, with the names it is given in the environment, YAML
 * (`*_file`) and sections. Nothing here is written per key.
 */
import type { ConfigValue, KeyRow } from './key-kinds.js';
import { STARTUP_REGISTRY } from './registry.js';

export type { ConfigScope, ConfigValue, Sensitivity } from './key-kinds.js';

type Registry = typeof STARTUP_REGISTRY;

/** Dotted name of every startup key, e.g. `server.port`. */
export type StartupKeyName = keyof Registry;

/** The value type of a key, as its row's builder declares it. */
export type ValueAt<K extends StartupKeyName> = Registry[K] extends KeyRow<infer V> ? V : never;

export interface StartupKey extends KeyRow {
  readonly key: StartupKeyName;
}

/** Every startup key, in documented order. */
export const STARTUP_KEYS: readonly StartupKey[] = (Object.keys(STARTUP_REGISTRY) as StartupKeyName[]).map((key) =>
  Object.freeze({ ...(STARTUP_REGISTRY[key] as KeyRow<ConfigValue>), key }),
);

const BY_NAME = new Map<string, StartupKey>(STARTUP_KEYS.map((k) => [k.key, k]));
const ORDER = new Map<string, number>(STARTUP_KEYS.map((k, i) => [k.key, i]));

export function findKey(name: string): StartupKey | undefined {
  return BY_NAME.get(name);
}

export function isStartupKey(name: string): name is StartupKeyName {
  return BY_NAME.has(name);
}

/** Position of a key in the table; unknown names sort first (they are loading problems). */
export function keyOrder(name: string): number {
  return ORDER.get(name) ?? -1;
}

/** Whether the key may be given as `<key>_file` (YAML) or `SVC_<KEY>_FILE` (environment). */
export function acceptsFile(key: StartupKey): boolean {
  return key.sensitivity !== 'none';
}

export const ENV_PREFIX = 'SVC_';

/** `server.cors_allowed_origins` → `SVC_SERVER_CORS_ALLOWED_ORIGINS`. */
export function envName(key: string): string {
  return ENV_PREFIX + key.replace(/\./g, '_').toUpperCase();
}

/** `SVC_*` variables that belong to the program but are not startup keys. */
export const NON_KEY_ENV = new Set(['SVC_CONFIG', 'SVC_DEPLOYMENT_METHOD', 'SVC_CACHE_DIR', 'SVC_PG_BINDIR']);

/** Prefixes of the local-stack scripts' own variables (`infra/`), which a developer may
 *  export in the same shell that runs `svc`. */
export const NON_KEY_ENV_PREFIXES: readonly string[] = ['SVC_STACK_'];

export function isNonKeyEnv(name: string): boolean {
  return NON_KEY_ENV.has(name) || NON_KEY_ENV_PREFIXES.some((prefix) => name.startsWith(prefix));
}

function sectionOf(key: string): string | undefined {
  const dot = key.indexOf('.');
  return dot === -1 ? undefined : key.slice(0, dot);
}

/** Top-level sections of the nested form (`server`, `jwt`, ...). */
export const SECTIONS: ReadonlySet<string> = new Set(
  STARTUP_KEYS.map((k) => sectionOf(k.key)).filter((s): s is string => s !== undefined),
);
