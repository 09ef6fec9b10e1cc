/**
 * Podman as the container tests drive it: the project's containers.conf (infra/podman/), the
 * images `npm run image -- --dependencies` built, and the secret files a deployment mounts.
 */
import { execFile, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { waitFor } from '../fixtures/deadline.js';
import { BED_PASSWORD } from '../gateways/bed.js';
import { generatedSecrets } from '../harness/replica.js';
import { repoRoot } from '../harness/stack.js';

const execFileAsync = promisify(execFile);

const containersConf = process.env.CONTAINERS_CONF ?? join(repoRoot(), 'infra/podman/containers.conf');
const version = (JSON.parse(readFileSync(join(repoRoot(), 'package.json'), 'utf8')) as { version: string }).version;

/** The image infra/image.sh builds and deploy/ names. */
export const SVC_IMAGE = process.env.SVC_IMAGE ?? `localhost/svc:${version}`;

export function podmanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { ...process.env, CONTAINERS_CONF: containersConf, ...extra };
}

export interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a command with podman's environment; never throws on a non-zero exit. */
export function run(command: string, args: string[], options: { input?: string; env?: Record<string, string>; cwd?: string; timeoutMs?: number } = {}): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: podmanEnv(options.env), cwd: options.cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 120_000);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, stdout, stderr });
    });
    child.stdin.end(options.input ?? '');
  });
}

export function podman(args: string[], options: { input?: string; timeoutMs?: number } = {}): Promise<Ran> {
  return run('podman', args, options);
}

/** Like podman(), but a failure throws with what podman said. */
export async function podmanOk(args: string[], options: { input?: string; timeoutMs?: number } = {}): Promise<string> {
  const ran = await podman(args, options);
  if (ran.code !== 0) throw new Error(`podman ${args.join(' ')} exited ${ran.code}: ${ran.stderr.slice(-4000)}`);
  return ran.stdout;
}

/** Fails with the command that builds them when the images are missing (infra/test.sh builds them first). */
export async function requireImages(...images: string[]): Promise<void> {
  for (const image of [SVC_IMAGE, ...images]) {
    const { stdout } = await execFileAsync('podman', ['images', '--noheading', '--format', '{{.Repository}}:{{.Tag}}', image], { env: podmanEnv() });
    if (stdout.trim() === '') throw new Error(`image ${image} is missing: run npm run image -- --dependencies (infra/test.sh does before these tests)`);
  }
}

/** Waits until `<baseUrl>/health/ready` answers 200; a timeout's error carries `diagnostics()`. */
export async function waitReady(baseUrl: string, what: string, timeoutMs: number, diagnostics: () => Promise<string>): Promise<void> {
  await waitFor(what, async () => ((await fetch(`${baseUrl}/health/ready`).catch(() => undefined))?.status === 200 ? true : undefined), timeoutMs, 50).catch(
    async (err: Error) => {
      throw new Error(`${err.message}\n${await diagnostics()}`);
    },
  );
}

/** The first administrator, made as the README says: `svc user create-root` inside the gateway's container. */
export function createRootIn(container: string, username: string): Promise<Ran> {
  return podman(['exec', '-i', container, 'svc', 'user', 'create-root', '--username', username, '--password-stdin'], { input: `${BED_PASSWORD}\n` });
}

/** A container's log, for failure messages. */
export async function logsOf(container: string, lines = 60): Promise<string> {
  const ran = await podman(['logs', '--tail', String(lines), container]);
  return `--- ${container} ---\n${ran.stdout}${ran.stderr}`;
}

/**
 * svc's secrets as files in a fresh folder, named as deploy/make-secrets.sh names them
 * (jwt_secret, opaque_server_setup_secret, credential_encryption_key) plus database_url; 0644,
 * because the containers' non-root users must read them.
 */
export async function secretFiles(databaseUrl: string, sfuApiSecret?: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'svc-secrets-'));
  await mkdir(dir, { recursive: true });
  const env = await generatedSecrets();
  const files: Record<string, string> = {
    jwt_secret: env.SVC_JWT_SECRET ?? '',
    opaque_server_setup_secret: env.SVC_SECURITY_OPAQUE_SERVER_SETUP_SECRET ?? '',
    credential_encryption_key: env.SVC_CREDENTIAL_ENCRYPTION_KEY ?? '',
    database_url: databaseUrl,
    ...(sfuApiSecret === undefined ? {} : { sfu_api_secret: sfuApiSecret }),
  };
  for (const [name, value] of Object.entries(files)) {
    if (!value) throw new Error(`svc secrets generate gave no ${name}`);
    await writeFile(join(dir, name), value, { mode: 0o644 });
  }
  await chmod(dir, 0o755);
  return dir;
}
