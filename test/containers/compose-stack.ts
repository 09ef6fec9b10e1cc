/**
 * deploy/compose.yaml started as a self-hoster starts it, in a folder of its own: the secrets
 * from deploy/make-secrets.sh, `podman-compose up -d` with the ports published on loopback,
 * until the gateway is ready. Shared by the Compose test and `npm run bench:containers`.
 */
import { randomUUID } from 'node:crypto';
import { copyFile, mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { freePort, repoRoot } from '../harness/stack.js';
import { logsOf, run, SVC_IMAGE, waitReady, type Ran } from './podman.js';

const podmanCompose = process.env.SVCTEST_PODMAN_COMPOSE ?? 'podman-compose';
export const COMPOSE_FILE = join(repoRoot(), 'deploy/compose.yaml');

export interface ComposeStack {
  project: string;
  /** The gateway's published HTTP address. */
  url: string;
  temporalUiUrl: string;
  /** LiveKit's published signalling (HTTP and WebSocket) address. */
  sfuUrl: string;
  /** The folder deploy/make-secrets.sh wrote the secret files into. */
  secretsDir: string;
  /** Services of the file, in its order. */
  services: string[];
  /** The container of a service (podman-compose names them <project>_<service>_1). */
  container(service: string): string;
  /** From `up -d` to a ready gateway. */
  readyMs: number;
  down(): Promise<Ran>;
}

/** The images the file names, other than svc's own. */
export async function composeDependencyImages(): Promise<string[]> {
  const compose = parse(await readFile(COMPOSE_FILE, 'utf8')) as { services: Record<string, { image?: string }> };
  return [...new Set(Object.values(compose.services).map((service) => service.image ?? ''))].filter((image) => image && !image.includes('SVC_IMAGE'));
}

export async function startComposeStack(): Promise<ComposeStack> {
  const dir = await mkdtemp(join(tmpdir(), 'svc-compose-'));
  await copyFile(COMPOSE_FILE, join(dir, 'compose.yaml'));
  await copyFile(join(repoRoot(), 'deploy/livekit.yaml'), join(dir, 'livekit.yaml'));
  const secretsDir = join(dir, 'secrets');
  const secrets = await run('bash', [join(repoRoot(), 'deploy/make-secrets.sh'), secretsDir], { env: { SVC_IMAGE } });
  if (secrets.code !== 0) throw new Error(`deploy/make-secrets.sh failed: ${secrets.stderr}`);
  const services = Object.keys((parse(await readFile(COMPOSE_FILE, 'utf8')) as { services: Record<string, unknown> }).services);

  const ports = {
    http: await freePort(),
    grpc: await freePort(),
    rtmp: await freePort(),
    temporalUi: await freePort(),
    sfu: await freePort(),
    sfuTcp: await freePort(),
    sfuUdp: await freePort(),
  };
  const url = `http://127.0.0.1:${ports.http}`;
  const project = `svct${randomUUID().slice(0, 8)}`;
  const env = {
    SVC_IMAGE,
    SVC_HTTP_PUBLISH: `127.0.0.1:${ports.http}`,
    SVC_GRPC_PUBLISH: `127.0.0.1:${ports.grpc}`,
    SVC_RTMP_PUBLISH: `127.0.0.1:${ports.rtmp}`,
    SVC_TEMPORAL_UI_PUBLISH: `127.0.0.1:${ports.temporalUi}`,
    SVC_SFU_PUBLISH: `127.0.0.1:${ports.sfu}`,
    // ICE over TCP is announced on 7881, which is not this host's: media takes the UDP port,
    // which keeps its number inside and out as LiveKit announces it.
    SVC_SFU_RTC_TCP_PUBLISH: `127.0.0.1:${ports.sfuTcp}`,
    SVC_SFU_RTC_UDP_PORT: String(ports.sfuUdp),
    SVC_SFU_RTC_UDP_PUBLISH: `127.0.0.1:${ports.sfuUdp}`,
    SVC_SFU_PUBLIC_URL: `ws://127.0.0.1:${ports.sfu}`,
    SVC_PUBLIC_URL: url,
    SVC_PUBLIC_HOST: '127.0.0.1',
  };
  const compose = (...args: string[]) => run(podmanCompose, ['-p', project, '-f', join(dir, 'compose.yaml'), ...args], { env, cwd: dir, timeoutMs: 240_000 });
  const container = (service: string) => `${project}_${service}_1`;
  const down = () => compose('down', '--volumes', '--timeout', '30');

  const startedAt = performance.now();
  const up = await compose('up', '-d');
  if (up.code !== 0) {
    await down();
    throw new Error(`podman-compose up failed: ${up.stderr.slice(-4000)}`);
  }
  try {
    await waitReady(url, 'the gateway to be ready through its published port', 240_000, async () =>
      (await Promise.all(services.map((service) => logsOf(container(service))))).join('\n'),
    );
  } catch (err) {
    await down();
    throw err;
  }
  return {
    project,
    url,
    temporalUiUrl: `http://127.0.0.1:${ports.temporalUi}`,
    sfuUrl: `http://127.0.0.1:${ports.sfu}`,
    secretsDir,
    services,
    container,
    readyMs: performance.now() - startedAt,
    down,
  };
}
