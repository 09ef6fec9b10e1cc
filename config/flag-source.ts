import { findKey, STARTUP_KEYS } from './keys.js';
import type { Layer } from './layer.js';
import { didYouMean } from './suggest.js';

/**
 * The flag layer: dotted key → value, built by a command from its own options (for example
 * `svc serve --http-port 8081` passes `{'server.port': '8081'}`). Undefined means the option
 * was not given, so commands can pass every option they have.
 */
export function readFlagLayer(flags: Record<string, unknown>): Layer {
  const layer: Layer = { source: 'flag', assignments: [], issues: [] };
  for (const [name, raw] of Object.entries(flags)) {
    if (raw === undefined || raw === null) continue;
    const key = findKey(name);
    if (!key) {
      const names = STARTUP_KEYS.map((k) => k.key);
      layer.issues.push({ key: name, message: `unknown startup key given as a flag${didYouMean(name, names)}` });
      continue;
    }
    layer.assignments.push({ key, via: 'value', raw, origin: `flag ${name}` });
  }
  return layer;
}
