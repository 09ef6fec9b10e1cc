import { readFile } from 'node:fs/promises';
import { isMap, isNode, isScalar, LineCounter, parseDocument, type Document, type Pair } from 'yaml';
import { describeFsError } from './fs-error.js';
import { acceptsFile, findKey, SECTIONS, STARTUP_KEYS } from './keys.js';
import type { Assignment, Layer } from './layer.js';
import { didYouMean } from './suggest.js';

/** Issues about the configuration file as a whole carry this key. */
export const FILE_ISSUE_KEY = 'config';

const FILE_SUFFIX = '_file';

/** Every name a YAML file may use: keys, sections and `<secret>_file` references. */
const YAML_NAMES: readonly string[] = [
  ...STARTUP_KEYS.map((k) => k.key),
  ...SECTIONS,
  ...STARTUP_KEYS.filter(acceptsFile).map((k) => k.key + FILE_SUFFIX),
];

/**
 * Reads the YAML layer: nested sections with snake_case keys (`server: {port: 8080}`), plus
 * `<key>_file` for sensitive keys. Never throws; every problem names the file and line.
 */
export async function readYamlLayer(file: string): Promise<Layer> {
  const layer: Layer = { source: 'file', assignments: [], issues: [] };
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    layer.issues.push({ key: FILE_ISSUE_KEY, message: `cannot read config file ${file}: ${describeFsError(err)}` });
    return layer;
  }

  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: true });
  const at = (offset: number | undefined): string => {
    if (offset === undefined) return file;
    const { line, col } = lines.linePos(offset);
    return `${file}:${line}:${col}`;
  };

  if (doc.errors.length > 0) {
    for (const err of doc.errors) {
      // prettyErrors appends " at line L, column C:" and a source excerpt; the position is
      // already in the prefix, so keep only the sentence.
      const sentence = err.message.replace(/ at line \d+, column \d+:[\s\S]*$/, '');
      layer.issues.push({ key: FILE_ISSUE_KEY, message: `${at(err.pos[0])}: ${sentence}` });
    }
    return layer;
  }

  const root = doc.contents;
  if (root === null || (isScalar(root) && root.value === null)) return layer; // empty file
  if (!isMap(root)) {
    layer.issues.push({
      key: FILE_ISSUE_KEY,
      message: `${at(root.range?.[0])}: the top level must be a mapping of keys and sections, such as "server:"`,
    });
    return layer;
  }

  const walker = new Walker(doc, at, layer);
  walker.walkMap(root.items, '');
  return layer;
}

class Walker {
  constructor(
    private readonly doc: Document,
    private readonly at: (offset: number | undefined) => string,
    private readonly layer: Layer,
  ) {}

  walkMap(items: Pair<unknown, unknown>[], prefix: string): void {
    for (const pair of items) {
      const keyNode = pair.key;
      const where = this.at(isNode(keyNode) ? keyNode.range?.[0] : undefined);
      const name = isScalar(keyNode) ? keyNode.value : keyNode;
      if (typeof name !== 'string') {
        this.issue(prefix ? prefix.slice(0, -1) : FILE_ISSUE_KEY, `${where}: keys must be plain strings`);
        continue;
      }
      this.visit(prefix + name, pair.value, where);
    }
  }

  private visit(path: string, valueNode: unknown, where: string): void {
    const key = findKey(path);
    if (key) {
      this.assign({ key, via: 'value', origin: `${path} in ${where}` }, valueNode);
      return;
    }
    if (path.endsWith(FILE_SUFFIX)) {
      const target = findKey(path.slice(0, -FILE_SUFFIX.length));
      if (target && acceptsFile(target)) {
        this.assign({ key: target, via: 'file', origin: `${path} in ${where}` }, valueNode);
        return;
      }
    }
    if (SECTIONS.has(path)) {
      if (isMap(valueNode)) this.walkMap(valueNode.items, path + '.');
      else if (!isNull(valueNode)) this.issue(path, `${where}: "${path}" is a section; it must be a mapping of keys`);
      return;
    }
    this.issue(path, `${where}: unknown configuration key${didYouMean(path, YAML_NAMES)}`);
  }

  private assign(partial: Omit<Assignment, 'raw'>, valueNode: unknown): void {
    // `key:` with nothing after it (or `~`) leaves the key to lower layers.
    if (isNull(valueNode)) return;
    let raw: unknown;
    try {
      raw = isNode(valueNode) ? valueNode.toJS(this.doc) : valueNode;
    } catch (err) {
      this.issue(partial.key.key, `${partial.origin}: ${describeFsError(err)}`);
      return;
    }
    this.layer.assignments.push({ ...partial, raw });
  }

  private issue(key: string, message: string): void {
    this.layer.issues.push({ key, message });
  }
}

function isNull(node: unknown): boolean {
  return node === null || node === undefined || (isScalar(node) && node.value === null);
}
