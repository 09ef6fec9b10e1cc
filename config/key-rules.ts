/**
 * The checks startup keys share, for the registry's rows (config/registry.ts): ranges, required
 * text, URLs with their schemes, host:port addresses and lists checked entry by entry. Each
 * answers the problems of one value, worded as `svc config validate` prints them after the key.
 */
import { parseNetwork, parsePostgresUrl, type PostgresUrl } from '../net/index.js';
import { parseListenAddress } from '../net/index.js';
import type { KeyRule, Problems, Range } from './key-kinds.js';
import { redactUrl } from './redact-url.js';

interface Shown {
  /** Append `(got <value>)` to the message. */
  showValue?: boolean;
}

const got = (value: number, options: Shown): string => (options.showValue ? ` (got ${String(value)})` : '');

// The four wordings below are those the keys have always answered with (operators' scripts and
// the tests match them); a new key takes `integerIn`, the runtime settings' wording.

/** `min..=max`, said "must be between min and max". */
export function between(min: number, max: number, options: Shown = {}): Range {
  return {
    min,
    max,
    words: `${min}..=${max}`,
    problem: (value) => (value >= min && value <= max ? undefined : `must be between ${min} and ${max}${got(value, options)}`),
  };
}

/** `min..=max` for a whole number, said "must be an integer in min..=max". */
export function integerIn(min: number, max: number, options: Shown = {}): Range {
  return {
    min,
    max,
    words: `${min}..=${max}`,
    problem: (value) =>
      Number.isInteger(value) && value >= min && value <= max ? undefined : `must be an integer in ${min}..=${max}${got(value, options)}`,
  };
}

export function atLeast(min: number): Range {
  return { min, words: `at least ${min}`, problem: (value) => (value >= min ? undefined : `must be at least ${min}`) };
}

export function greaterThan(bound: number): Range {
  return { min: bound, words: `greater than ${bound}`, problem: (value) => (value > bound ? undefined : `must be greater than ${bound}`) };
}

export const required: KeyRule<string> = (value) => (value.trim() === '' ? ['is required'] : []);

/** The whole value matches `pattern`, else `message(value)`. */
export function matching(pattern: RegExp, message: (value: string) => string): KeyRule<string> {
  return (value) => (pattern.test(value) ? [] : [message(value)]);
}

/** Empty passes; anything else must satisfy `rule`. */
export function emptyOr(rule: KeyRule<string>): KeyRule<string> {
  return (value) => (value === '' ? [] : rule(value));
}

/** A URL with one of `protocols` (`'https:'`) and a host; `example` shows the expected form. */
export function url(protocols: readonly string[], example: string): KeyRule<string> {
  return (value) => urlProblems(value, protocols, example);
}

export function urlProblems(text: string, protocols: readonly string[], example: string): Problems {
  // Messages show the URL without its password: they end up in logs and terminals.
  const shown = `"${redactUrl(text)}"`;
  let parsed: URL;
  try {
    parsed = new URL(text);
  } catch {
    return [`${shown} is not a URL (expected something like ${example})`];
  }
  if (!protocols.includes(parsed.protocol)) {
    const schemes = protocols.map((p) => `${p}//`).join(' or ');
    return [`${shown} must start with ${schemes}`];
  }
  if (parsed.hostname === '') return [`${shown} has no host`];
  return [];
}

/**
 * A PostgreSQL URL, libpq's multi-host form included (`postgres://u@db1:5432,db2:5432/svc?
 * target_session_attrs=read-write`): every host must make a URL of its own.
 */
export function postgresUrl(example: string): KeyRule<string> {
  return (value) => {
    let parsed: PostgresUrl;
    try {
      parsed = parsePostgresUrl(value);
    } catch (err) {
      const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(value.trim());
      if (scheme && !/^postgres(ql)?:\/\//i.test(scheme[0])) return urlProblems(value, POSTGRES_SCHEMES, example);
      return [`"${redactUrl(value)}" ${(err as Error).message} (expected something like ${example})`];
    }
    return parsed.hosts.flatMap((host) => urlProblems(parsed.urlFor(host), POSTGRES_SCHEMES, example));
  };
}
const POSTGRES_SCHEMES = ['postgres:', 'postgresql:'];

/** A `host:port` (`127.0.0.1:9464`, `[::1]:9464`); `suffix` ends the message (", or empty"). */
export function listenAddress(example: string, suffix = ''): KeyRule<string> {
  return (value) => (parseListenAddress(value) ? [] : [`"${value}" must be host:port, such as ${example}${suffix}`]);
}

/** Each entry of a list on its own: `problem(entry, index)` answers why one is wrong (index from 0). */
export function eachEntry(problem: (entry: string, index: number) => string | undefined): KeyRule<string[]> {
  return (entries) => entries.flatMap((entry, index) => problem(entry, index) ?? []);
}

/** Entries that are networks (CIDR or single addresses), numbered from 1 in the message. */
export function networks(example: string): KeyRule<string[]> {
  return eachEntry((text, index) => (parseNetwork(text) ? undefined : `entry ${index + 1} "${text}" is not a network such as ${example}`));
}
