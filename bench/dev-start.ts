/**
 * A second `npm run dev`: seconds from the command to the service's URL line (`svc web client:`),
 * on this checkout with its .svc/ stack, when nothing changed since the last start. One start
 * first brings the build and the stack up to date (not counted), then BENCH_RUNS starts (default
 * 3), each stopped with Ctrl-C (SIGINT to its process group) once the URL is printed; the stack
 * keeps running, as it does for a developer.
 * Run with `npm run bench:dev-start`; prints each figure and the median (target < 15 s).
 * It uses the dev ports (8080, 9090, 9464, ... or SVC_* from the environment): stop a running
 * `npm run dev` of this checkout first.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { percentile } from './percentile.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const TARGET_S = 15;
const URL_LINE = /^svc web client: /;
/** A start that takes this long is broken, not slow. */
const START_DEADLINE_MS = 10 * 60_000;
const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

interface Start {
  seconds: number;
  /** What the start printed before its URL line, for a reader to check it is quiet. */
  lines: string[];
}

/** Runs `npm run dev` until it prints the URL line, then stops it with SIGINT and waits for it to exit. */
function startOnce(): Promise<Start> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    // Its own process group, as a terminal would give it, so SIGINT reaches the service and the watcher.
    const child = spawn('npm', ['run', 'dev'], { cwd: repoRoot, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const lines: string[] = [];
    let seconds: number | undefined;
    const timer = setTimeout(() => {
      process.kill(-(child.pid as number), 'SIGKILL');
      reject(new Error(`npm run dev printed no URL within ${START_DEADLINE_MS / 1000} s:\n${lines.join('\n')}`));
    }, START_DEADLINE_MS);
    const onLine = (line: string): void => {
      if (seconds !== undefined) return;
      lines.push(line);
      if (!URL_LINE.test(line)) return;
      seconds = (performance.now() - started) / 1000;
      process.kill(-(child.pid as number), 'SIGINT');
    };
    createInterface({ input: child.stdout }).on('line', onLine);
    createInterface({ input: child.stderr }).on('line', onLine);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      if (seconds === undefined) reject(new Error(`npm run dev exited (${code}) before printing its URL:\n${lines.join('\n')}`));
      else resolve({ seconds, lines });
    });
  });
}

async function main(): Promise<void> {
  console.log('warm-up start (brings the build and the stack up to date; not counted)');
  const warm = await startOnce();
  console.log(`  ${warm.seconds.toFixed(1)} s`);

  const samples: number[] = [];
  let last: Start | undefined;
  for (let run = 1; run <= RUNS; run += 1) {
    last = await startOnce();
    samples.push(last.seconds);
    console.log(`start ${run}: ${last.seconds.toFixed(1)} s to the URL`);
  }
  console.log('what the last start printed:');
  for (const line of last?.lines ?? []) console.log(`  | ${line}`);
  const sorted = [...samples].sort((a, b) => a - b);
  console.log(`second npm run dev, command to URL, ${RUNS} runs: median ${percentile(sorted, 50).toFixed(1)} s  max ${sorted.at(-1)?.toFixed(1)} s  (target < ${TARGET_S} s)`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
