/**
 * The effective startup configuration (spec section 1, "Startup configuration"). Loaded once
 * at process start from defaults < YAML / secret files < environment < CLI flags; a change
 * needs a restart. Runtime settings live in `settings/`, never here.
 *
 * The type is inferred from the registry (config/registry.ts): `server.port` there is
 * `config.server.port: number` here, `log.level` the union of its levels, top-level keys such as
 * `data_dir` stay at the top. What each key means is said once, in its row.
 */
import type { StartupKeyName, ValueAt } from './keys.js';

type TopLevelKey = Exclude<StartupKeyName, `${string}.${string}`>;
type SectionOf<K> = K extends `${infer Section}.${string}` ? Section : never;
type SectionName = SectionOf<StartupKeyName>;

/** The keys of one section, by their name inside it: `{ host: string; port: number }` for `server`. */
type Section<S extends string> = { [K in StartupKeyName as K extends `${S}.${infer Leaf}` ? Leaf : never]: ValueAt<K> };

export type StartupConfig = { [N in TopLevelKey | SectionName]: N extends TopLevelKey ? ValueAt<N> : Section<N> };

/** A resolved management endpoint, shared by the server (listen) and the CLI (connect). */
export type ManagementEndpoint =
  | { kind: 'unix'; path: string }
  | { kind: 'tcp'; host: string; port: number; token: string };
