// What `npm run dev` runs beside the service: rebuilds dist/web-client when a file under web/
// changes (reload the page to see it). Vite's watch mode builds everything once when it starts,
// which would redo the build infra/build-web.sh has just made (or skipped as up to date) and
// print its report after the service's URLs; so Vite's watcher starts at the first change.
// It runs in dev.sh's process group: Ctrl-C stops it with the service.
import { watch } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { compressAssets } from '../web/build/compress-assets.mjs';

const webDir = fileURLToPath(new URL('../web/', import.meta.url));
const outDir = fileURLToPath(new URL('../dist/web-client/', import.meta.url));
// Written by infra/build-web.sh, never by hand.
const GENERATED = /^src\/api\/openapi\.gen\./;

const firstChange = watch(webDir, { recursive: true }, (_event, name) => {
  if (name && GENERATED.test(name)) return;
  firstChange.close();
  startViteWatch().catch((error) => {
    console.error('[web] the web client watcher stopped:', error);
    process.exitCode = 1;
  });
});

async function startViteWatch() {
  const { build } = await import('vite');
  // Rebuilds go on after a failed one: Vite reports the error and keeps watching.
  const watcher = await build({ configFile: `${webDir}vite.config.ts`, logLevel: 'warn', build: { watch: {} } });
  watcher.on('event', (event) => {
    if (event.code !== 'BUNDLE_END') return;
    compressAssets(outDir).catch((error) => console.error('[web] could not compress the rebuilt web client:', error));
  });
}
