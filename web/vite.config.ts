import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { serviceWorker } from './build/service-worker.js';
import { sizeReport } from './build/size-report.js';

/** Initial JavaScript budget (gzip): the entry chunk and every chunk it imports statically. */
const INITIAL_JS_BUDGET_BYTES = 200 * 1024;

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/',
  publicDir: 'public',
  // A pre-bundled, same-origin build only: no CDN, no runtime download.
  build: {
    outDir: fileURLToPath(new URL('../dist/web-client', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: true,
    // Inline data: URLs would need a wider CSP for fonts; assets stay files.
    assetsInlineLimit: 0,
    // Every browser we support has modulepreload; the polyfill would be an inline script.
    modulePreload: { polyfill: false },
    reportCompressedSize: false,
    chunkSizeWarningLimit: 1024,
    // Rolldown warns when plugin callbacks take a large share of a build; on a loaded machine
    // that is every build, and the warning says nothing about the client we ship.
    rolldownOptions: { checks: { bundlerTimings: false } },
  },
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  plugins: [
    sizeReport({ initialBudgetBytes: INITIAL_JS_BUDGET_BYTES }),
    // The installable app's worker, at /sw.js (docs/2026-11-29-installable-app.md).
    serviceWorker({ entry: fileURLToPath(new URL('src/pwa/sw.ts', import.meta.url)) }),
  ],
});
