import { acceptsFile, ENV_PREFIX, envName, isNonKeyEnv, keyOrder, NON_KEY_ENV, STARTUP_KEYS, type StartupKey } from './keys.js';
import type { Assignment, Layer } from './layer.js';
import { didYouMean } from './suggest.js';

const FILE_SUFFIX = '_FILE';

const BY_ENV = new Map<string, StartupKey>(STARTUP_KEYS.map((k) => [envName(k.key), k]));
const FILE_BY_ENV = new Map<string, StartupKey>(
  STARTUP_KEYS.filter(acceptsFile).map((k) => [envName(k.key) + FILE_SUFFIX, k]),
);
const KNOWN_NAMES: readonly string[] = [...BY_ENV.keys(), ...FILE_BY_ENV.keys(), ...NON_KEY_ENV];

/**
 * Reads `SVC_<KEY>` variables (dots become underscores, upper case) and `SVC_<KEY>_FILE` for
 * sensitive keys. An empty variable counts as unset, so a compose file that passes through
 * an undefined variable does not override the YAML file with "".
 */
export function readEnvLayer(env: NodeJS.ProcessEnv): Layer {
  const layer: Layer = { source: 'env', assignments: [], issues: [] };
  const unknown: string[] = [];
  for (const [name, value] of Object.entries(env)) {
    if (!name.startsWith(ENV_PREFIX) || value === undefined || value === '') continue;
    if (isNonKeyEnv(name)) continue;
    // Exact names win: SVC_TLS_CERT_FILE is the key tls.cert_file, not a file for "tls.cert".
    const direct = BY_ENV.get(name);
    const viaFile = direct ? undefined : FILE_BY_ENV.get(name);
    const key = direct ?? viaFile;
    if (!key) {
      unknown.push(name);
      continue;
    }
    const assignment: Assignment = { key, via: direct ? 'value' : 'file', raw: value, origin: name };
    layer.assignments.push(assignment);
  }
  // Process order does not depend on how the environment happened to be built.
  layer.assignments.sort((a, b) => keyOrder(a.key.key) - keyOrder(b.key.key) || (a.via === 'value' ? -1 : 1));
  for (const name of unknown.sort()) {
    layer.issues.push({
      key: name,
      message: `unknown environment variable: no startup key is named by it${didYouMean(name, KNOWN_NAMES)}`,
    });
  }
  return layer;
}
