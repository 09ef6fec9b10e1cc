/**
 * The figures of the container deployment (`npm run bench:containers`), on the throwaway stack:
 *   - the image's size;
 *   - cold start of each role in its container, `podman run` to the first 200 from
 *     /health/ready (BENCH_RUNS each, default 5; p50 and max), and its memory then;
 *   - a Compose stack from `up -d` to a ready gateway, with the images in place;
 *   - with --from-empty: from a machine with podman and no images at all (no base, no layers,
 *     no dependency stand-ins) to a ready Compose stack: `npm run image -- --dependencies`, then
 *     `up -d`. It deletes those images and the cached base first. The Go-built binaries the
 *     stand-ins copy (infra/install.sh) are kept: building them is the project's set-up, not this.
 */
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { composeDependencyImages, startComposeStack } from '../test/containers/compose-stack.js';
import { podman, podmanEnv, podmanOk, requireImages, SVC_IMAGE } from '../test/containers/podman.js';
import { roleDeployment, startRole, type Role } from '../test/containers/role-container.js';
import { repoRoot } from '../test/harness/stack.js';
import { percentile } from './percentile.js';
import { childrenOf, rssBytes } from './proc.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

/** Resident memory of svc in a container: the child of its PID 1 (tini), read from the host's /proc. */
async function serviceRssMiB(container: string): Promise<number> {
  const tini = Number(await podmanOk(['inspect', '--format', '{{.State.Pid}}', container]));
  const [svc] = await childrenOf(tini);
  return (await rssBytes(svc!)) / 2 ** 20;
}

async function fromEmpty(): Promise<void> {
  const images = [SVC_IMAGE, 'localhost/svc-base:trixie-slim', ...(await composeDependencyImages())];
  await podman(['rmi', '--force', ...images]);
  await podman(['image', 'prune', '--all', '--force']);
  await podman(['builder', 'prune', '--all', '--force']).catch(() => undefined);
  rmSync(join(process.env.SVC_CACHE_DIR ?? join(homedir(), '.cache/svc'), 'images'), { recursive: true, force: true });
  const startedAt = performance.now();
  execFileSync('bash', [join(repoRoot(), 'infra/image.sh'), '--dependencies'], { stdio: 'inherit', env: podmanEnv() });
  const built = performance.now() - startedAt;
  const stack = await startComposeStack();
  const total = performance.now() - startedAt;
  await stack.down();
  console.log(`from no images to a ready Compose stack: ${seconds(total)} (images ${seconds(built)}, secrets and compose up ${seconds(total - built)}, of which up to ready ${seconds(stack.readyMs)})`);
}

async function main(): Promise<void> {
  if (process.argv.includes('--from-empty')) await fromEmpty();
  await requireImages(...(await composeDependencyImages()));

  const [image] = JSON.parse(await podmanOk(['image', 'inspect', SVC_IMAGE])) as Array<{ Size: number }>;
  console.log(`image ${SVC_IMAGE}: ${(image!.Size / 1e6).toFixed(0)} MB`);

  const deployment = await roleDeployment('bench_containers');
  for (const role of ['gateway', 'actors', 'worker'] as Role[]) {
    const samples: number[] = [];
    const rss: number[] = [];
    for (let run = 0; run < RUNS; run += 1) {
      const started = await startRole(deployment, role, `svc-bench-${role}-${deployment.tag}-${run}`);
      samples.push(started.readyMs);
      rss.push(await serviceRssMiB(started.name));
      await podman(['rm', '--force', '--time', '10', started.name]);
    }
    const sorted = [...samples].sort((a, b) => a - b);
    const memory = percentile([...rss].sort((a, b) => a - b), 50);
    console.log(`${role}: container start to ready p50 ${seconds(percentile(sorted, 50))}, max ${seconds(sorted.at(-1)!)}; RSS when ready ${memory.toFixed(0)} MiB (${RUNS} runs)`);
  }

  const stack = await startComposeStack();
  await stack.down();
  console.log(`compose up (images in place) to a ready gateway: ${seconds(stack.readyMs)}`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
