import { isAbsolute, resolve } from 'node:path';
import { AppError, type FieldIssue } from '../errors/index.js';
import { coerceValue } from './coerce.js';
import { readEnvLayer } from './env-source.js';
import { readFlagLayer } from './flag-source.js';
import { findKey, STARTUP_KEYS, type ConfigScope, type ConfigValue, type StartupKeyName } from './keys.js';
import type { Assignment, ConfigSource, Layer } from './layer.js';
import { buildConfig } from './paths.js';
import { readSecretFile } from './secret-file.js';
import type { StartupConfig } from './types.js';
import { validateConfig } from './validate.js';
import { readYamlLayer } from './yaml-source.js';

export type { ConfigSource } from './layer.js';

export interface LoadOptions {
  /** YAML file; defaults to `SVC_CONFIG` from `env` (also when undefined). */
  file?: string | undefined;
  /** Defaults to `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** Dotted key → value from command-line options; undefined values are ignored. */
  flags?: Record<string, unknown>;
  /** Base of relative paths (`data_dir`, the config file, secret files); defaults to the process's. */
  cwd?: string;
}

export interface LoadResult {
  config: StartupConfig;
  /** First error first: loading problems (file, environment, flags), then validation in key order. */
  issues: FieldIssue[];
  sources: Record<StartupKeyName, ConfigSource>;
}

/** Loads and validates. Never throws for bad input: every problem is an issue. */
export async function loadConfig(options: LoadOptions = {}): Promise<LoadResult> {
  const loaded = await readConfig(options);
  // A key that failed to load holds a lower layer's value; judging that value would only
  // bury the real problem under a second message.
  const failed = new Set(loaded.issues.map((i) => i.key));
  const validation = (await validateConfig(loaded.config)).filter((i) => !failed.has(i.key));
  return { ...loaded, issues: [...loaded.issues, ...validation] };
}

/**
 * Loads without validating: the effective values and the problems met while reading them.
 * Precedence is flags > environment > (YAML | secret files) > defaults.
 */
export async function readConfig(options: LoadOptions = {}): Promise<LoadResult> {
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  const file = options.file || env.SVC_CONFIG || undefined;

  const values = new Map<StartupKeyName, ConfigValue>();
  const sources = {} as Record<StartupKeyName, ConfigSource>;
  for (const key of STARTUP_KEYS) {
    values.set(key.key, key.defaultValue());
    sources[key.key] = 'default';
  }

  const layers: Layer[] = [];
  if (file) layers.push(await readYamlLayer(resolve(cwd, file)));
  layers.push(readEnvLayer(env));
  if (options.flags) layers.push(readFlagLayer(options.flags));

  const issues: FieldIssue[] = [];
  for (const layer of layers) {
    issues.push(...layer.issues);
    for (const [key, assignments] of groupByKey(layer.assignments)) {
      const applied = await applyKey(assignments, cwd);
      if ('message' in applied) {
        issues.push({ key, message: applied.message });
        continue;
      }
      values.set(key, applied.value);
      sources[key] = applied.fromFile ? 'secret_file' : layer.source;
    }
  }

  const dataDir = values.get('data_dir');
  if (typeof dataDir === 'string' && dataDir !== '' && !isAbsolute(dataDir)) values.set('data_dir', resolve(cwd, dataDir));
  return { config: buildConfig(values), issues, sources };
}

type Applied = { value: ConfigValue; fromFile: boolean } | { message: string };

/** One key within one layer: at most one of the value and its `*_file`, coerced to its type. */
async function applyKey(assignments: Assignment[], cwd: string): Promise<Applied> {
  if (assignments.length > 1) {
    const [first, second] = assignments;
    return { message: `${first!.origin} and ${second!.origin} both set it; keep only one` };
  }
  const assignment = assignments[0]!;
  let raw = assignment.raw;
  if (assignment.via === 'file') {
    const read = await readSecretFile(raw, cwd);
    if (!read.ok) return { message: `${assignment.origin}: ${read.message}` };
    raw = read.value;
  }
  const coerced = coerceValue(assignment.key, raw);
  if (!coerced.ok) return { message: `${assignment.origin}: ${coerced.message}` };
  return { value: coerced.value, fromFile: assignment.via === 'file' };
}

function groupByKey(assignments: Assignment[]): Map<StartupKeyName, Assignment[]> {
  const groups = new Map<StartupKeyName, Assignment[]>();
  for (const assignment of assignments) {
    const list = groups.get(assignment.key.key) ?? [];
    list.push(assignment);
    groups.set(assignment.key.key, list);
  }
  return groups;
}

/**
 * Which issues stop a given kind of process. The CLI talking to a running server needs only
 * `management.*` and `data_dir` (it must not need the server's JWT secret); `svc migrate`
 * needs the database; the registry's rows say so. Problems of the sources themselves (unknown
 * keys, an unreadable or broken file) always count, since the value someone meant to set may be
 * among them.
 */
export type { ConfigScope } from './keys.js';

/** The issues that stop `scope`: those of keys whose row says the scope needs them (`neededBy`). */
export function issuesInScope(issues: FieldIssue[], scope: ConfigScope): FieldIssue[] {
  return issues.filter((issue) => findKey(issue.key)?.neededBy.includes(scope) ?? true);
}

/** The configuration, or `AppError.invalid` naming every issue that matters for `scope`. */
export function requireValid(result: Pick<LoadResult, 'config' | 'issues'>, scope: ConfigScope = 'server'): StartupConfig {
  const issues = issuesInScope(result.issues, scope);
  if (issues.length > 0) throw AppError.invalid(issues);
  return result.config;
}
