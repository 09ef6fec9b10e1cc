/**
 * Debian's nginx running the configuration we document for operators, deploy/nginx/svc.conf,
 * with only the lines it marks EDIT rendered for this machine: the gateways' addresses, a
 * loopback listen port instead of 80/443 (no IPv6 listener), and a test certificate. The host
 * names stay, so clients address `watch.example.com` and `grpc.watch.example.com` as a browser
 * would and resolve them to 127.0.0.1 themselves. A documented line the renderer does not know
 * fails the render, so the file and this test cannot drift apart.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitForPort } from '../fixtures/nginx.js';
import type { SelfSigned } from '../fixtures/self-signed.js';
import { freePort, repoRoot } from '../harness/stack.js';
import { WEB_HOST } from './proxied-service.js';

export interface ProxyTargets {
  /** The two gateways' HTTP `host:port`. */
  http: [string, string];
  /** The two gateways' gRPC `host:port`. */
  grpc: [string, string];
  tls: SelfSigned;
}

export interface ReverseProxy {
  /** The TLS port both server blocks listen on (443 in the documented file). */
  port: number;
  /** `https://watch.example.com:<port>`: what a browser would have in its address bar. */
  origin: string;
  stop(): Promise<void>;
}

/** `[documented text, rendered text, how many times the file must contain it]` */
type Substitution = [string, string, number];

/** deploy/nginx/svc.conf with this machine's addresses; throws when the file changed shape. */
export async function renderNginxConfig(targets: ProxyTargets, ports: { tls: number; plain: number }): Promise<string> {
  const documented = await readFile(join(repoRoot(), 'deploy', 'nginx', 'svc.conf'), 'utf8');
  const substitutions: Substitution[] = [
    ['server 10.0.0.11:8080 ', `server ${targets.http[0]} `, 1],
    ['server 10.0.0.12:8080 ', `server ${targets.http[1]} `, 1],
    ['server 10.0.0.11:9090 ', `server ${targets.grpc[0]} `, 1],
    ['server 10.0.0.12:9090 ', `server ${targets.grpc[1]} `, 1],
    ['listen 80;', `listen 127.0.0.1:${ports.plain};`, 1],
    ['listen 443 ssl http2;', `listen 127.0.0.1:${ports.tls} ssl http2;`, 2],
    ['/etc/ssl/svc/fullchain.pem', targets.tls.certPath, 2],
    ['/etc/ssl/svc/privkey.pem', targets.tls.keyPath, 2],
  ];
  let rendered = documented;
  for (const [from, to, times] of substitutions) {
    const found = rendered.split(from).length - 1;
    if (found !== times) throw new Error(`deploy/nginx/svc.conf: expected "${from}" ${times} time(s), found ${found}: update test/deploy/nginx-proxy.ts with the file`);
    rendered = rendered.replaceAll(from, to);
  }
  const lines = rendered.split('\n').filter((line) => !/^\s*listen \[::\]:/.test(line));
  const unknown = lines.filter((line) => !/^\s*#/.test(line) && line.includes('# EDIT') && !/^\s*server_name /.test(line) && !/^\s*(server|listen) 127\.0\.0\.1:|^\s*ssl_certificate/.test(line));
  if (unknown.length > 0) throw new Error(`deploy/nginx/svc.conf has EDIT lines the test does not render:\n${unknown.join('\n')}`);
  return lines.join('\n');
}

/** nginx in front of the two gateways, as configured by the documented file. */
export async function startReverseProxy(targets: ProxyTargets): Promise<ReverseProxy> {
  const dir = await mkdtemp(join(tmpdir(), 'svc-reverse-proxy-'));
  await mkdir(join(dir, 'temp'));
  const ports = { tls: await freePort(), plain: await freePort() };
  await writeFile(join(dir, 'svc.conf'), await renderNginxConfig(targets, ports));
  // What Debian's /etc/nginx/nginx.conf provides around conf.d/, in a throwaway prefix.
  const temp = join(dir, 'temp');
  await writeFile(
    join(dir, 'nginx.conf'),
    `daemon off;
master_process off;
worker_processes 1;
pid ${join(dir, 'nginx.pid')};
error_log ${join(dir, 'error.log')} warn;
events { worker_connections 1024; }
http {
  default_type application/octet-stream;
  client_body_temp_path ${temp};
  proxy_temp_path ${temp};
  fastcgi_temp_path ${temp};
  uwsgi_temp_path ${temp};
  scgi_temp_path ${temp};
  access_log ${join(dir, 'access.log')};
  include ${join(dir, 'svc.conf')};
}
`,
  );
  const child: ChildProcess = spawn('/usr/sbin/nginx', ['-c', join(dir, 'nginx.conf'), '-p', dir, '-e', join(dir, 'error.log')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  process.once('exit', () => child.kill('SIGKILL'));
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGQUIT');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    }
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await waitForPort(ports.tls, 10_000, () => (child.exitCode !== null ? `nginx exited: ${stderr}` : undefined));
  } catch (err) {
    await stop();
    throw err;
  }
  return { port: ports.tls, origin: `https://${WEB_HOST}:${ports.tls}`, stop };
}
