import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { Plugin } from 'vite';

export interface ServiceWorkerOptions {
  /** The worker's source (web/src/pwa/sw.ts), built as its own entry at /sw.js. */
  entry: string;
}

/** The string sw.ts parses as its manifest; replaced in the built file. */
const PLACEHOLDER = /(["'`])__SVC_PRECACHE_MANIFEST__\1/;
const SW_FILE = 'sw.js';
/** Files of public/ the worker keeps with the shell: the tab's icon and the manifest (icons are fetched by installers, not pages). */
const PUBLIC_SHELL = ['favicon.svg', 'manifest.webmanifest'];

/**
 * Builds the service worker (docs/2026-11-29-installable-app.md) as its own entry at the root
 * (its scope is the path it is served from), then writes into it what to precache and a version:
 * - precached: index.html, the start-up chunks (the entry and what it imports statically), the
 *   chunk of every page (`src/views/`, `src/pwa/`) and language (`src/i18n/`) with their static imports,
 *   every stylesheet, and PUBLIC_SHELL. Player libraries, WebAssembly and workers are cached
 *   when first used (hashed, so for good), not on install: they are megabytes a person may
 *   never need.
 * - the version: a digest of every built file and every public file, so any change to what is
 *   served is a new sw.js, which the browser's update check notices.
 */
export function serviceWorker(options: ServiceWorkerOptions): Plugin {
  let publicDir = '';
  return {
    name: 'svc-service-worker',
    apply: 'build',
    enforce: 'post',
    config(config) {
      const root = config.root ?? process.cwd();
      return {
        build: {
          rolldownOptions: {
            input: { index: join(root, 'index.html'), sw: options.entry },
            output: { entryFileNames: (chunk: { name: string }) => (chunk.name === 'sw' ? SW_FILE : 'assets/[name]-[hash].js') },
          },
        },
      };
    },
    configResolved(config) {
      publicDir = config.publicDir;
    },
    async generateBundle(_options, bundle) {
      const worker = bundle[SW_FILE];
      if (worker?.type !== 'chunk') return this.error(`the service worker entry did not build as ${SW_FILE}`);
      if (worker.imports.length > 0 || worker.dynamicImports.length > 0) {
        // A classic worker script cannot import; a module shared with the page would split into a chunk.
        return this.error(`${SW_FILE} imports ${[...worker.imports, ...worker.dynamicImports].join(', ')}: it must import types only`);
      }

      const precache = new Set<string>();
      const visit = (name: string): void => {
        const chunk = bundle[name];
        if (precache.has(name) || chunk?.type !== 'chunk') return;
        precache.add(name);
        chunk.imports.forEach(visit);
      };
      for (const [name, file] of Object.entries(bundle)) {
        if (name === SW_FILE) continue;
        if (file.type === 'asset' && (name.endsWith('.css') || name === 'index.html')) precache.add(name);
        if (file.type !== 'chunk') continue;
        const page = file.isDynamicEntry && /\/src\/(views|i18n|pwa)\//.test(file.facadeModuleId ?? '');
        if (file.isEntry || page) visit(name);
      }

      if (!precache.has('index.html')) return this.error('index.html was not in the bundle when the service worker was written');
      const publicFiles = await filesUnder(publicDir);
      for (const name of PUBLIC_SHELL) if (publicFiles.includes(name)) precache.add(name);

      const digest = createHash('sha256');
      for (const name of Object.keys(bundle).sort()) {
        const file = bundle[name]!;
        if (name === SW_FILE || name.endsWith('.map')) continue;
        digest.update(`${name}\0`).update(file.type === 'chunk' ? file.code : file.source).update('\0');
      }
      for (const name of publicFiles.sort()) digest.update(`${name}\0`).update(await readFile(join(publicDir, name))).update('\0');

      const manifest = { version: digest.digest('hex').slice(0, 16), files: [...precache].sort().map((name) => `/${name}`) };
      if (!PLACEHOLDER.test(worker.code)) return this.error(`${SW_FILE} has no manifest placeholder to fill`);
      worker.code = worker.code.replace(PLACEHOLDER, () => JSON.stringify(JSON.stringify(manifest)));
    },
  };
}

async function filesUnder(dir: string): Promise<string[]> {
  if (!dir) return [];
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => relative(dir, join(entry.parentPath, entry.name)));
}
