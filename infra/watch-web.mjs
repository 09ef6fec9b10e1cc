// What `npm run dev` runs beside the service: rebuilds dist/web-client when a file under web/
// changes (reload the page to see it). Vite's watch mode builds everything once when it starts,
// which would redo the build infra/build-web.sh has just made (or skipped as up to date) and
// print its report after the service's URLs; so Vite's watcher starts at the first change.
// It runs in dev.sh's process group: Ctrl-C stops it with the service.
//
// A rebuild here is not a release build: Vite empties dist/web-client and writes no .br/.gz
// (the gateway then serves the files as they are), and the build stamp is removed at the first
// change, so the next `npm run dev`, `npm test` or `npm run build` builds the client whole again.
import { rmSync, watch } from 'node:fs';
import { fileURLToPath } from 'node:url';

const webDir = fileURLToPath(new URL('../web/', import.meta.url));
const stamp = fileURLToPath(new URL('../dist/web-client.stamp', import.meta.url));
// Written by infra/build-web.sh, never by hand.
const GENERATED = /^src\/api\/openapi\.gen\./;

const firstChange = watch(webDir, { recursive: true }, (_event, name) => {
  if (name && GENERATED.test(name)) return;
  firstChange.close();
  rmSync(stamp, { force: true });
  startViteWatch().catch((error) => {
    console.error('[web] the web client watcher stopped:', error);
    process.exitCode = 1;
  });
});

async function startViteWatch() {
  const { build } = await import('vite');
  // Rebuilds go on after a failed one: Vite reports the error and keeps watching.
  await build({ configFile: `${webDir}vite.config.ts`, logLevel: 'warn', build: { watch: {} } });
}
