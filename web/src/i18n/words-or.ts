/**
 * Words for a name the server sends (a setting's key, a provider's name) when the catalogue has
 * them, else the server's own: its lists are open (an operator's build may add a setting or a
 * provider), so a path the catalogue lacks is not an error.
 */
import { en } from './catalogue/en/index.js';
import { t } from './i18n.js';

type Tree = { readonly [name: string]: string | Tree };

/** Whether the catalogue has a sentence at this path (checked in English: every language has the same keys). */
function inCatalogue(path: readonly string[]): boolean {
  let node: string | Tree = en;
  for (const name of path) {
    if (typeof node === 'string' || !Object.hasOwn(node, name)) return false;
    node = node[name] as string | Tree;
  }
  return typeof node === 'string';
}

// The paths are built from the server's names, so they are not known to the type checker.
const say = t as unknown as (key: string, values?: Readonly<Record<string, unknown>>) => string;

/** The catalogue's sentence at `path` in the page's language, or `fallback` (the server's words). */
export function wordsOr(path: readonly string[], fallback: string, values?: Readonly<Record<string, unknown>>): string {
  return inCatalogue(path) ? say(path.join('.'), values) : fallback;
}
