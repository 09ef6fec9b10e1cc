/**
 * Cold start of `svc serve` (all roles) to ready, with the local stack already up:
 * time from spawning the process to the first 200 from /health/ready.
 * Run with `npm run bench:cold-start`; prints p50 / p90 / max over the runs.
 */
import { generatedSecrets, replicaEnv } from '../test/harness/replica.js';
import { freePort, freshDatabase } from '../test/harness/stack.js';
import { runSvc, SvcProcess } from '../test/harness/svc-process.js';
import { percentile } from './percentile.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 10);
const TARGET_MS = 3000;

async function main(): Promise<void> {
  const databaseUrl = await freshDatabase('bench_cold_start');
  const secrets = await generatedSecrets();
  const migrated = await runSvc(['migrate'], { SVC_DATABASE_URL: databaseUrl });
  if (migrated.code !== 0) throw new Error(migrated.stderr);

  const samples: number[] = [];
  for (let run = 0; run < RUNS; run += 1) {
    const port = await freePort();
    const env = await replicaEnv(databaseUrl, secrets, { SVC_SERVER_PORT: String(port) });
    const started = performance.now();
    const replica = new SvcProcess(['serve'], env);
    const deadline = started + 30_000;
    for (;;) {
      const ok = await fetch(`http://127.0.0.1:${port}/health/ready`).then(
        (response) => response.status === 200,
        () => false,
      );
      if (ok) break;
      if (performance.now() > deadline) throw new Error(`replica not ready within 30 s: ${replica.stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    samples.push(performance.now() - started);
    await replica.stop();
  }

  const sorted = [...samples].sort((a, b) => a - b);
  console.log(`cold start of svc serve (all roles) to /health/ready 200, ${RUNS} runs`);
  console.log(`p50 ${percentile(sorted, 50).toFixed(0)} ms  p90 ${percentile(sorted, 90).toFixed(0)} ms  max ${sorted.at(-1)?.toFixed(0)} ms  (target < ${TARGET_MS} ms)`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
