/**
 * Caddy running the configuration we document, deploy/caddy/Caddyfile, with only its EDIT lines
 * rendered for this machine: the gateways' addresses, a loopback port on both site addresses
 * with the test certificate instead of ACME (no account e-mail, no admin endpoint, no redirect
 * listener on :80, state in a throwaway directory). Debian has no caddy package: `caddyBinary()`
 * takes the one npm test built (SVCTEST_CADDY), else one on PATH, or says there is none.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitForPort } from '../fixtures/nginx.js';
import type { SelfSigned } from '../fixtures/self-signed.js';
import { freePort, repoRoot } from '../harness/stack.js';
import type { ProxyTargets, ReverseProxy } from './nginx-proxy.js';

export const CADDYFILE = join(repoRoot(), 'deploy', 'caddy', 'Caddyfile');

/** The caddy binary to run (infra/install.sh builds it; npm test names it), or undefined when this machine has none. */
export function caddyBinary(): string | undefined {
  const candidate = process.env.SVCTEST_CADDY ?? 'caddy';
  return spawnSync(candidate, ['version'], { stdio: 'ignore' }).status === 0 ? candidate : undefined;
}

type Substitution = [string, string];

export async function renderCaddyfile(targets: ProxyTargets, port: number, tls: SelfSigned, stateDir: string): Promise<string> {
  const documented = await readFile(CADDYFILE, 'utf8');
  const substitutions: Substitution[] = [
    [
      '\temail ops@example.com\n',
      `\tadmin off\n\tauto_https disable_redirects\n\tdefault_bind 127.0.0.1\n\tstorage file_system ${join(stateDir, 'data')}\n\tservers {\n\t\tprotocols h1 h2\n\t}\n`,
    ],
    ['\nwatch.example.com {\n', `\nwatch.example.com:${port} {\n\ttls ${tls.certPath} ${tls.keyPath}\n`],
    ['\ngrpc.watch.example.com {\n', `\ngrpc.watch.example.com:${port} {\n\ttls ${tls.certPath} ${tls.keyPath}\n`],
    ['reverse_proxy 10.0.0.11:8080 10.0.0.12:8080 {', `reverse_proxy ${targets.http[0]} ${targets.http[1]} {`],
    ['reverse_proxy h2c://10.0.0.11:9090 h2c://10.0.0.12:9090 {', `reverse_proxy h2c://${targets.grpc[0]} h2c://${targets.grpc[1]} {`],
  ];
  let rendered = documented;
  for (const [from, to] of substitutions) {
    const found = rendered.split(from).length - 1;
    if (found !== 1) throw new Error(`deploy/caddy/Caddyfile: expected "${from.trim()}" once, found ${found}: update test/deploy/caddy-proxy.ts with the file`);
    rendered = rendered.replace(from, to);
  }
  return rendered;
}

/** Caddy in front of the two gateways, as configured by the documented file. */
export async function startCaddy(caddy: string, targets: ProxyTargets): Promise<ReverseProxy> {
  const dir = await mkdtemp(join(tmpdir(), 'svc-caddy-'));
  const port = await freePort();
  const config = join(dir, 'Caddyfile');
  await writeFile(config, await renderCaddyfile(targets, port, targets.tls, dir));
  const env = { PATH: process.env.PATH, HOME: dir, XDG_DATA_HOME: join(dir, 'data'), XDG_CONFIG_HOME: join(dir, 'config') };
  const child: ChildProcess = spawn(caddy, ['run', '--config', config, '--adapter', 'caddyfile'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-8000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  process.once('exit', () => child.kill('SIGKILL'));
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    }
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await waitForPort(port, 15_000, () => (child.exitCode !== null ? `caddy exited: ${stderr}` : undefined));
  } catch (err) {
    await stop();
    throw err;
  }
  return { port, origin: `https://watch.example.com:${port}`, stop };
}
