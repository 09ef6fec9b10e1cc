/**
 * How long a runtime-setting write takes to reach other replicas' caches.
 *
 * Three `svc settings watch` processes stand in for replicas (they run the same cache and
 * LISTEN code as `svc serve`). This process makes sequential writes through SettingsStore
 * and, for each, takes latency = (when a replica applied it) - (when the writer's COMMIT
 * returned). Both instants are `performance.timeOrigin + performance.now()`, epoch
 * milliseconds with a sub-millisecond fraction, taken on the same host. Every write waits
 * until all replicas applied it, so each sample is one undisturbed propagation.
 *
 * Run with `npm run bench:settings` (infra/bench.sh starts the stack and sets SVCTEST_*).
 * Options through the environment: BENCH_WRITES (default 200), BENCH_REPLICAS (default 3).
 */
import { createLogger } from '../observability/logger.js';
import { SettingsStore } from '../settings/settings-table.js';
import { migrate } from '../postgres/migrate.js';
import { createPool } from '../postgres/pool.js';
import { startSettingsWatch, waitForChange } from '../test/fixtures/settings-watch.js';
import type { SvcProcess } from '../test/harness/svc-process.js';
import { freshDatabase } from '../test/harness/stack.js';
import { percentile } from './percentile.js';

const WRITES = Number(process.env.BENCH_WRITES ?? 200);
const REPLICAS = Number(process.env.BENCH_REPLICAS ?? 3);
const KEY = 'server.maxRoomsPerUser';
const TARGET_P99_MS = 50;
/** A write not seen by every replica within this is a failure, not a slow sample. */
const PER_WRITE_DEADLINE_MS = 10_000;

function now(): number {
  return performance.timeOrigin + performance.now();
}

function summary(samples: readonly number[]): string {
  const sorted = [...samples].sort((a, b) => a - b);
  const ms = (value: number): string => `${value.toFixed(2)} ms`;
  return `p50 ${ms(percentile(sorted, 50))}  p99 ${ms(percentile(sorted, 99))}  max ${ms(sorted.at(-1) ?? Number.NaN)}  (n=${sorted.length})`;
}

async function main(): Promise<void> {
  const url = await freshDatabase('bench_settings_propagation');
  const pool = createPool({ url, max: 2, applicationName: 'svc-bench-writer' });
  const replicas: SvcProcess[] = [];
  try {
    await migrate(pool, createLogger({ level: 'warn' }));
    replicas.push(...(await Promise.all(Array.from({ length: REPLICAS }, () => startSettingsWatch(url, ['--key', KEY])))));
    const store = new SettingsStore(pool);
    const author = { actor: 'bench', source: 'bench:settings-propagation' };
    const perReplica: number[][] = replicas.map(() => []);

    for (let write = 0; write < WRITES; write += 1) {
      // 11, 12, 11, ...: never the value the key already has (default 10), so every write counts.
      const value = 11 + (write % 2);
      const [applied] = await store.update([{ key: KEY, value }], author);
      const committedAt = now();
      if (!applied) throw new Error(`write ${write + 1} of ${KEY}=${value} changed nothing`);
      const lines = await Promise.all(
        replicas.map((replica) => waitForChange(replica, KEY, applied.version, PER_WRITE_DEADLINE_MS)),
      );
      lines.forEach((line, i) => perReplica[i]?.push(line.appliedAt - committedAt));
    }

    const all = perReplica.flat();
    console.log(`settings propagation: ${WRITES} sequential writes of ${KEY}, ${REPLICAS} replicas (svc settings watch)`);
    console.log('latency = replica applied the change - writer COMMIT returned');
    console.log(`all         ${summary(all)}`);
    perReplica.forEach((samples, i) => console.log(`replica ${i + 1}   ${summary(samples)}`));
    const p99 = percentile(
      [...all].sort((a, b) => a - b),
      99,
    );
    console.log(`target p99 < ${TARGET_P99_MS} ms: ${p99 < TARGET_P99_MS ? 'met' : 'MISSED'}`);
    if (p99 >= TARGET_P99_MS) process.exitCode = 1;
  } finally {
    await Promise.all(replicas.map((replica) => replica.stop()));
    await pool.end();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
