/**
 * Metric names in PromQL and in a Prometheus text scrape, for checking a dashboard against the
 * series the service serves without running Prometheus. Enough PromQL for our dashboard:
 * selectors, ranges, aggregations with by/without, binary operators, functions and numbers.
 */

const KEYWORDS = new Set(['by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'bool', 'offset', 'and', 'or', 'unless', 'inf', 'nan']);

/** The metric names an expression selects (Grafana variables and label matchers ignored). */
export function metricNamesOf(expr: string): string[] {
  const stripped = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ');
  const names = new Set<string>();
  for (const match of stripped.matchAll(/[A-Za-z_:][A-Za-z0-9_:]*/g)) {
    const name = match[0];
    const after = stripped.slice((match.index ?? 0) + name.length).trimStart();
    // A function or aggregation is followed by its arguments; a number's exponent is not a name.
    if (after.startsWith('(') || KEYWORDS.has(name.toLowerCase())) continue;
    const before = stripped.slice(0, match.index ?? 0);
    if (/[0-9.]$/.test(before)) continue;
    names.add(name);
  }
  return [...names];
}

/**
 * Every name a scrape can be queried by: sample names, and for each `# TYPE` line its name
 * plus the `_bucket`/`_sum`/`_count` series of a histogram or summary (a labelled series with
 * no sample yet is still declared by its TYPE line).
 */
export function scrapedNames(text: string): Set<string> {
  const names = new Set<string>();
  for (const line of text.split('\n')) {
    const typed = /^# TYPE (\S+) (\S+)/.exec(line);
    if (typed) {
      const [, name, type] = typed as unknown as [string, string, string];
      names.add(name);
      if (type === 'histogram') for (const suffix of ['_bucket', '_sum', '_count']) names.add(name + suffix);
      if (type === 'summary') for (const suffix of ['_sum', '_count']) names.add(name + suffix);
      continue;
    }
    if (line === '' || line.startsWith('#')) continue;
    const sample = /^[A-Za-z_:][A-Za-z0-9_:]*/.exec(line);
    if (sample) names.add(sample[0]);
  }
  return names;
}

/** The sum of a scrape's samples of `name` whose labels include every `labels` pair. */
export function sampleSum(text: string, name: string, labels: Record<string, string> = {}): number {
  let total = 0;
  let found = false;
  for (const line of text.split('\n')) {
    const match = /^([A-Za-z_:][A-Za-z0-9_:]*)(\{(.*)\})? (\S+)/.exec(line);
    if (!match || match[1] !== name) continue;
    const present = new Map([...(match[3] ?? '').matchAll(/([A-Za-z_][A-Za-z0-9_]*)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([key, value]) => present.get(key) === value)) {
      total += Number(match[4]);
      found = true;
    }
  }
  return found ? total : Number.NaN;
}
