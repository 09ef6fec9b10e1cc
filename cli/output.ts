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

/**
 * The width a table should fit: the terminal's, or COLUMNS when the output is not a terminal.
 * Undefined when neither is known (piped to a file or a pager): lines are then as long as they need.
 */
export function terminalWidth(stream: NodeJS.WritableStream, env: NodeJS.ProcessEnv = process.env): number | undefined {
  const tty = stream as Partial<NodeJS.WriteStream>;
  if (tty.isTTY && tty.columns) return tty.columns;
  const columns = Number(env.COLUMNS);
  return Number.isInteger(columns) && columns > 0 ? columns : undefined;
}

/** Narrowest a wrapped column gets, however narrow the terminal. */
const MIN_WRAPPED_WIDTH = 12;

/**
 * Rows whose `wrappable` columns are wrapped (never cut) so that the table renderTable draws is
 * at most `width` characters wide: the other columns keep their width, and the wrappable ones
 * share what is left, a column that needs less than its share giving the rest to the others.
 */
export function fitRows(head: string[], rows: string[][], width: number, wrappable: number[]): string[][] {
  const natural = head.map((title, column) => Math.max(longestLine(title), ...rows.map((row) => longestLine(row[column] ?? ''))));
  // Each column has a border on its left and one space of padding either side; one more border closes the row.
  const frame = head.length * 3 + 1;
  let remaining = width - frame - natural.reduce((sum, size, column) => (wrappable.includes(column) ? sum : sum + size), 0);
  const widths = new Map<number, number>();
  const pending = [...wrappable].sort((a, b) => (natural[a] ?? 0) - (natural[b] ?? 0));
  while (pending.length > 0) {
    const column = pending.shift() as number;
    const share = Math.floor(remaining / (pending.length + 1));
    const size = Math.min(natural[column] ?? 0, Math.max(MIN_WRAPPED_WIDTH, share));
    widths.set(column, size);
    remaining -= size;
  }
  return rows.map((row) => row.map((cell, column) => (widths.has(column) ? wrapText(cell, widths.get(column) as number) : cell)));
}

/**
 * Breaks text into lines of at most `width` characters, after a space or a comma when there is
 * one in the second half of the line, anywhere otherwise: joined again, the lines are the text.
 */
export function wrapText(text: string, width: number): string {
  const lines: string[] = [];
  for (let rest of text.split('\n')) {
    while (rest.length > width) {
      const head = rest.slice(0, width);
      const breakAt = Math.max(head.lastIndexOf(' '), head.lastIndexOf(','));
      let cut = breakAt >= width / 2 ? breakAt + 1 : width;
      // ", " breaks after the space when it fits, so the next line does not start with one.
      if (cut < width && rest[cut] === ' ') cut += 1;
      lines.push(rest.slice(0, cut));
      rest = rest.slice(cut);
    }
    lines.push(rest);
  }
  return lines.join('\n');
}

function longestLine(text: string): number {
  return Math.max(...text.split('\n').map((line) => line.length));
}
