/**
 * The shape of one startup key's row in the registry (config/registry.ts), and one builder per
 * value type, so that a row states only what is particular to its key: its default, its sentence,
 * its range or rules, whether it is secret, who needs it and the flag that sets it. Loading,
 * validation, `svc config show`, the environment and flag names and the key table of
 * docs/configuration.md all read these rows.
 */

/** The numbers a key accepts: checked at validation, and shown in the key table. */
export interface Range {
  readonly min: number;
  readonly max?: number;
  /** How the key table writes it: `1..=64`, `at least 60`, `greater than 0`. */
  readonly words: string;
  /** Why `value` is outside, or undefined when it is inside. */
  problem(value: number): string | undefined;
}

export type KeyType =
  | { kind: 'string' }
  | { kind: 'int' }
  | { kind: 'number' }
  | { kind: 'port' }
  | { kind: 'bool' }
  | { kind: 'string_list' }
  | { kind: 'enum'; values: readonly string[] };

export type ConfigValue = string | number | boolean | string[];

/**
 * How a key is protected: `value` keys are secrets as a whole (redacted, may come from a
 * `*_file`); `url_credentials` keys are URLs whose password part is secret (redacted there,
 * may also come from a `*_file` so a URL with a password can live in a mounted secret).
 */
export type Sensitivity = 'none' | 'value' | 'url_credentials';

/**
 * Which kind of process a key's problems stop (config/load.ts `requireValid`): `server` is
 * `svc serve` (every key), `client` the CLI commands that talk to a running server, `database`
 * `svc migrate`.
 */
export type ConfigScope = 'server' | 'client' | 'database';

/** What is wrong with a value, one sentence each (the caller puts the key in front); none when it is right. */
export type Problems = readonly string[];

/** A check of one key's own value. Checks that read other keys are cross-key rules (config/cross-key-rules.ts). */
export type KeyRule<V> = (value: V) => Problems | Promise<Problems>;

/** A `svc serve` option that sets the key, with the few words its --help shows after the key. */
export interface KeyFlag {
  readonly name: `--${string}`;
  readonly help: string;
}

export interface KeyRow<V extends ConfigValue = ConfigValue> {
  readonly type: KeyType;
  /** The default value, computed on each call (lists are fresh copies; some depend on the host). */
  defaultValue(): V;
  /** How the documentation shows the default when the value alone would mislead (computed, or empty meaning something). */
  readonly shownDefault: string | undefined;
  readonly sensitivity: Sensitivity;
  /** One or two sentences: what the key sets. Ranges are not repeated here: the table shows `range`. */
  readonly description: string;
  readonly range: Range | undefined;
  /** Every problem of the key's own value: its range, then its rules in order. */
  problems(value: V): Promise<Problems>;
  /** The scopes whose processes need the key; always includes `server`. */
  readonly neededBy: readonly ConfigScope[];
  readonly flag: KeyFlag | undefined;
  /** A document (path from the repository root) with more about the key. */
  readonly see: string | undefined;
}

/** What a row states by hand; the builders below add the type and turn the rest into a `KeyRow`. */
interface Spec<V> {
  /** The default, or a function computing it when it depends on the host or process. */
  default: V | (() => V);
  description: string;
  shownDefault?: string;
  sensitivity?: Sensitivity;
  rules?: readonly KeyRule<V>[];
  /** Scopes besides `server` whose processes need the key. */
  alsoNeededBy?: readonly Exclude<ConfigScope, 'server'>[];
  flag?: KeyFlag;
  see?: string;
}

interface Ranged {
  range?: Range;
}

const PORT_RANGE: Range = {
  min: 1,
  max: 65535,
  words: '1..=65535',
  problem: (port) => (Number.isInteger(port) && port >= 1 && port <= 65535 ? undefined : `must be a port in 1..65535 (got ${String(port)})`),
};

export function text(spec: Spec<string>): KeyRow<string> {
  return row({ kind: 'string' }, spec);
}

/** A whole number; the loader refuses anything else before the range is checked. */
export function int(spec: Spec<number> & Ranged): KeyRow<number> {
  return row({ kind: 'int' }, spec, spec.range);
}

export function number(spec: Spec<number> & Ranged): KeyRow<number> {
  return row({ kind: 'number' }, spec, spec.range);
}

export function port(spec: Spec<number>): KeyRow<number> {
  return row({ kind: 'port' }, spec, PORT_RANGE);
}

export function bool(spec: Spec<boolean>): KeyRow<boolean> {
  return row({ kind: 'bool' }, spec);
}

/** A list of texts: a YAML sequence, or comma-separated in the environment and flags. */
export function list(spec: Spec<string[]>): KeyRow<string[]> {
  return row({ kind: 'string_list' }, spec);
}

/** One of `values` (case-insensitive when read); the value type is their union. */
export function oneOf<const T extends readonly string[]>(values: T, spec: Spec<T[number]>): KeyRow<T[number]> {
  const known: KeyRule<T[number]> = (value) => (values.includes(value) ? [] : [`must be one of ${values.join(', ')}`]);
  return row({ kind: 'enum', values }, { ...spec, rules: [known, ...(spec.rules ?? [])] });
}

function row<V extends ConfigValue>(type: KeyType, spec: Spec<V>, range?: Range): KeyRow<V> {
  const def = spec.default;
  const rules = spec.rules ?? [];
  return {
    type,
    // Lists are copied so no caller can mutate the shared default.
    defaultValue: typeof def === 'function' ? def : () => (Array.isArray(def) ? ([...def] as V) : def),
    shownDefault: spec.shownDefault,
    sensitivity: spec.sensitivity ?? 'none',
    description: spec.description,
    range,
    async problems(value: V): Promise<Problems> {
      const outside = range && typeof value === 'number' ? range.problem(value) : undefined;
      const found = await Promise.all(rules.map((rule) => Promise.resolve(rule(value))));
      return [...(outside === undefined ? [] : [outside]), ...found.flat()];
    },
    neededBy: ['server', ...(spec.alsoNeededBy ?? [])],
    flag: spec.flag,
    see: spec.see,
  };
}
