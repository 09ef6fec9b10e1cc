import { readFileSync } from 'node:fs';

let cached: string | undefined;

/** The version in package.json, read once; the same file ships with every deployment. */
export function packageVersion(): string {
  if (cached === undefined) {
    // dist/observability/version.js and observability/version.ts both sit two levels below the root.
    const url = new URL('../../package.json', import.meta.url);
    const fallback = new URL('../package.json', import.meta.url);
    let text: string;
    try {
      text = readFileSync(url, 'utf8');
    } catch {
      text = readFileSync(fallback, 'utf8');
    }
    cached = (JSON.parse(text) as { version: string }).version;
  }
  return cached;
}
