/**
 * The installable app's figures (issue 41): first paint of a room page on a repeat visit, when
 * the service worker serves the shell, under Lighthouse's phone profile (simulated slow 4G and a
 * 4x slower CPU), in Debian's Chromium against a whole service on the throwaway stack; and the
 * start-up JavaScript against its 200 KiB gzip budget (which web/build/size-report.ts enforces
 * at every build). Printed, never asserted:
 *  - repeat visit, Lighthouse's simulated throttling (its default phone profile): RUNS runs,
 *    first contentful paint each, then the median (target < 300 ms);
 *  - the same with throttling applied in the browser (DevTools), for a second opinion;
 *  - a first visit (storage reset: no worker, nothing cached) for comparison, last, since it
 *    clears the profile.
 * Run with `npm run bench:app-shell [-- <runs>]` (default 5).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { WEB_CLIENT_ROOT } from '../gateways/http/web-client.js';
import { signInPage, startWebBed, waitForPage } from '../test/web/e2e/browser.js';
import { openProfile, runLighthouse } from '../test/web/e2e/lighthouse.js';
import { median } from './percentile.js';

const RUNS = Number(process.argv[2] ?? 5);
const BUDGET_BYTES = 200 * 1024;

const bed = await startWebBed('bench_app_shell');
const profile = await openProfile(bed.origin);
try {
  const owner = await bed.signUp('shell');
  const room = await bed.call<{ room: { id: string } }>('POST', '/api/rooms', { name: 'Bench night' }, owner.token);
  const url = `${bed.origin}/rooms/${room.body.room.id}`;
  await signInPage(profile.page, owner.username);
  await profile.page.goto(url);
  await profile.page.getByRole('heading', { name: 'Bench night' }).waitFor({ timeout: 30_000 });
  await waitForPage(profile.page, 'navigator.serviceWorker.controller !== null', 30_000);

  const paint = async (label: string, flags: Parameters<typeof runLighthouse>[3], runs: number): Promise<void> => {
    const figures: number[] = [];
    for (let run = 0; run < runs; run++) {
      const result = await runLighthouse(url, profile.port, 'phone', { onlyAudits: ['first-contentful-paint', 'largest-contentful-paint'], ...flags });
      const fcp = result.audits['first-contentful-paint']?.numericValue ?? NaN;
      const lcp = result.audits['largest-contentful-paint']?.numericValue ?? NaN;
      figures.push(fcp);
      console.log(`  ${label} run ${run + 1}: first contentful paint ${fcp.toFixed(0)} ms, largest ${lcp.toFixed(0)} ms`);
    }
    figures.sort((a, b) => a - b);
    console.log(`${label}: first contentful paint median ${median(figures).toFixed(0)} ms, worst ${figures.at(-1)!.toFixed(0)} ms (${runs} runs)`);
  };

  console.log(`room page ${url}, Lighthouse phone profile:`);
  await paint('repeat visit, simulated throttling', { throttlingMethod: 'simulate' }, RUNS);
  await paint('repeat visit, DevTools throttling', { throttlingMethod: 'devtools' }, RUNS);
  await paint('first visit (no worker), simulated throttling', { throttlingMethod: 'simulate', disableStorageReset: false }, 1);

  // What the browser must load before the first render: index.html's module script and its modulepreloads.
  const html = await readFile(join(WEB_CLIENT_ROOT, 'index.html'), 'utf8');
  const scripts = [...html.matchAll(/<(?:script type="module"[^>]*? src|link rel="modulepreload"[^>]*? href)="\/([^"]+\.js)"/g)].map((match) => match[1]!);
  let startUp = 0;
  for (const script of scripts) startUp += gzipSync(await readFile(join(WEB_CLIENT_ROOT, script)), { level: 9 }).length;
  const worker = gzipSync(await readFile(join(WEB_CLIENT_ROOT, 'sw.js')), { level: 9 }).length;
  console.log(`start-up JavaScript: ${(startUp / 1024).toFixed(1)} KiB gzip in ${scripts.length} file(s) (budget ${BUDGET_BYTES / 1024} KiB, enforced by web/build/size-report.ts); the service worker adds ${(worker / 1024).toFixed(1)} KiB after load`);
} finally {
  await profile.close();
  await bed.close();
}
