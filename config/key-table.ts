/**
 * The table of startup keys in docs/configuration.md, written from the registry
 * (config/registry.ts) and the cross-key rules between two markers by `npm run build:config-table`.
 * A test (test/config/key-table.test.ts) fails while that file's copy differs from what this
 * builds, so the table cannot drift from the keys, as the OpenAPI document cannot drift from the
 * routes.
 */
import { dirname, relative } from 'node:path/posix';
import { CROSS_KEY_RULES } from './cross-key-rules.js';
import type { ConfigValue } from './key-kinds.js';
import { acceptsFile, envName, isStartupKey, STARTUP_KEYS, type StartupKey } from './keys.js';

/** Relative to the repository root. */
export const KEY_TABLE_FILE = 'docs/configuration.md';
export const KEY_TABLE_BUILD_COMMAND = 'npm run build:config-table';
export const KEY_TABLE_BEGIN = `<!-- startup keys: generated from config/registry.ts by \`${KEY_TABLE_BUILD_COMMAND}\`; edit the registry, not this table -->`;
export const KEY_TABLE_END = '<!-- startup keys: end -->';

const NEEDED_BY_WORDS = { client: 'Read by the CLI commands that talk to a server too.', database: 'Read by `svc migrate` too.' } as const;

/** The Markdown between the markers: the table, then the rules between keys. */
export function keyTableMarkdown(): string {
  const rows = STARTUP_KEYS.map((key) => `| ${[`\`${key.key}\``, setBy(key), defaultOf(key), valuesOf(key), whatItSets(key)].join(' | ')} |`);
  const rules = CROSS_KEY_RULES.map((rule) => `- ${prose(rule.name)}`);
  return [
    '| key | environment variable, flag | default | values | what it sets |',
    '|---|---|---|---|---|',
    ...rows,
    '',
    'Rules between keys (`config/cross-key-rules.ts`):',
    '',
    ...rules,
  ].join('\n');
}

/** `document` with the text between the markers replaced by a fresh table; throws when a marker is missing. */
export function withKeyTable(document: string): string {
  const begin = document.indexOf(KEY_TABLE_BEGIN);
  const end = document.indexOf(KEY_TABLE_END);
  if (begin === -1 || end < begin) throw new Error(`${KEY_TABLE_FILE} has no "${KEY_TABLE_BEGIN}" ... "${KEY_TABLE_END}" markers`);
  return `${document.slice(0, begin + KEY_TABLE_BEGIN.length)}\n${keyTableMarkdown()}\n${document.slice(end)}`;
}

function setBy(key: StartupKey): string {
  const names = [`\`${envName(key.key)}\``];
  if (acceptsFile(key)) names.push(`\`${envName(key.key)}_FILE\``);
  if (key.flag) names.push(`\`svc serve ${key.flag.name}\``);
  return names.join(', ');
}

function defaultOf(key: StartupKey): string {
  if (key.shownDefault !== undefined) return prose(key.shownDefault);
  return shownValue(key.defaultValue());
}

function shownValue(value: ConfigValue): string {
  if (value === '') return 'empty';
  if (Array.isArray(value)) return value.length === 0 ? 'empty list' : value.map((item) => `\`${item}\``).join(', ');
  return `\`${String(value)}\``;
}

function valuesOf(key: StartupKey): string {
  const range = key.range ? `, ${key.range.words}` : '';
  const kind = key.type;
  const base = ((): string => {
    switch (kind.kind) {
      case 'string':
        return key.sensitivity === 'url_credentials' ? 'URL' : 'text';
      case 'int':
        return `integer${range}`;
      case 'number':
        return `number${range}`;
      case 'port':
        return 'port';
      case 'bool':
        return '`true` or `false`';
      case 'string_list':
        return 'list';
      case 'enum':
        return `one of ${kind.values.map((value) => `\`${value}\``).join(', ')}`;
    }
  })();
  if (key.sensitivity === 'value') return `${base}; secret: \`config show\` redacts it, \`${key.key}_file\` may hold it`;
  if (key.sensitivity === 'url_credentials') return `${base}; its password is redacted, \`${key.key}_file\` may hold it`;
  return base;
}

function whatItSets(key: StartupKey): string {
  const parts = [prose(key.description)];
  for (const scope of key.neededBy) if (scope !== 'server') parts.push(NEEDED_BY_WORDS[scope]);
  if (key.see) {
    // `see` is a path from the repository root; the link is written from the table's own file.
    const link = relative(dirname(KEY_TABLE_FILE), key.see);
    parts.push(`More: [${link}](${link}).`);
  }
  return parts.join(' ');
}

// What may surround a word that is code: "(see <data_dir>)," keeps its brackets and comma.
const OPENING = '("';
const CLOSING = ')"\',.;:';

/**
 * A sentence for a Markdown table cell: key names, URLs and `<placeholders>` become code (a bare
 * `<data_dir>` would be read as an HTML tag), and a `|` cannot end the cell.
 */
function prose(sentence: string): string {
  return sentence
    .split(' ')
    .map((word) => {
      let start = 0;
      let end = word.length;
      while (start < end && OPENING.includes(word[start]!)) start += 1;
      while (end > start && CLOSING.includes(word[end - 1]!)) end -= 1;
      const core = word.slice(start, end);
      const code = core.includes('<') || core.includes('://') || isStartupKey(core);
      return code ? `${word.slice(0, start)}\`${core}\`${word.slice(end)}` : word;
    })
    .join(' ')
    .replace(/\|/g, '\\|');
}
