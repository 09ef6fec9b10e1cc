import Table from 'cli-table3';
import { stringify } from 'yaml';

export const OUTPUT_FORMATS = ['table', 'json', 'yaml'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export function parseOutputFormat(value: string | undefined, allowed: readonly OutputFormat[], fallback: OutputFormat): OutputFormat {
  const format = (value ?? fallback) as OutputFormat;
  if (!allowed.includes(format)) {
    throw new Error(`--output must be one of ${allowed.join(', ')} (got "${value}")`);
  }
  return format;
}

export function renderStructured(data: unknown, format: 'json' | 'yaml'): string {
  return format === 'json' ? `${JSON.stringify(data, null, 2)}\n` : stringify(data);
}

/** A plain table without colours, so it stays readable when piped or captured. */
export function renderTable(head: string[], rows: string[][]): string {
  const table = new Table({
    head,
    style: { head: [], border: [] },
    wordWrap: true,
    chars: { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' },
  });
  table.push(...rows);
  return `${table.toString()}\n`;
}

/** One value in the compact form an operator can paste back into `--set name=<value>`. */
export function formatValue(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** Shortens text for a table cell; the json/yaml outputs carry the full value. */
export function truncate(text: string, max = 60): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
