/**
 * The svc processes of the soak (2 gateways, 3 actor hosts, 1 worker) and the supervisor that
 * keeps them running: a slot keeps its configuration (ports, data dir) across restarts, and any
 * process that exits is started again in its slot as a new incarnation with a new replica id,
 * the way a process supervisor or an orchestrator replaces a pod. Each incarnation's stdout goes
 * to its own file under the log dir; the actor hosts' activation lines are parsed as they come.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, mkdtemp } from 'node:fs/promises';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { freePort } from '../../test/harness/stack.js';
import { childEnv, svcMain } from '../../test/harness/svc-process.js';
import { parseActivationLine, type ActivationLine } from './activation-line.js';
import type { StackAddresses } from './dependencies.js';

export type SlotRole = 'gateway' | 'actors' | 'worker';

/** One process that ran in a slot: when it started serving, and how it ended. */
export interface Incarnation {
  replicaId: string;
  slot: string;
  pid: number;
  startedAt: number;
  readyAt: number | undefined;
  /** When the soak sent it SIGKILL: it ran nothing after this. */
  killedAt: number | undefined;
  exitedAt: number | undefined;
}

const READY_TIMEOUT_MS = 60_000;

export class Slot {
  current: { child: ChildProcess; incarnation: Incarnation; ready: Promise<void> } | undefined;
  private generation = 0;
  private stopping = false;
  private restarting: Promise<void> | undefined;

  constructor(
    readonly name: string,
    readonly role: SlotRole,
    private readonly env: Record<string, string>,
    private readonly cluster: Cluster,
  ) {}

  /** The gateway's HTTP base URL (fixed across restarts). */
  get httpUrl(): string {
    return `http://127.0.0.1:${this.env.SVC_SERVER_PORT}`;
  }

  get grpcAddress(): string {
    return `127.0.0.1:${this.env.SVC_GRPC_PORT}`;
  }

  get pid(): number | undefined {
    return this.current?.child.pid;
  }

  get serving(): boolean {
    return this.current?.incarnation.readyAt !== undefined && this.current.incarnation.exitedAt === undefined;
  }

  /** Starts a new incarnation; resolves once it serves. */
  async start(): Promise<void> {
    this.generation += 1;
    const replicaId = `soak-${this.name}-${this.generation}`;
    const args = ['serve', '--role', this.role, '--replica-id', replicaId];
    const child = spawn(process.execPath, ['--enable-source-maps', svcMain, ...args], { env: childEnv(this.env), stdio: ['ignore', 'pipe', 'pipe'] });
    const incarnation: Incarnation = { replicaId, slot: this.name, pid: child.pid ?? -1, startedAt: Date.now(), readyAt: undefined, killedAt: undefined, exitedAt: undefined };
    this.cluster.incarnations.push(incarnation);
    const out = createWriteStream(join(this.cluster.logDir, `${replicaId}.log`));
    child.stderr?.pipe(out, { end: false });
    let readyResolve!: () => void;
    let readyReject!: (err: Error) => void;
    const ready = new Promise<void>((resolve, reject) => {
      readyResolve = resolve;
      readyReject = reject;
    });
    // Handled by whoever awaits it; a process that never gets ready is also restarted on exit.
    ready.catch(() => undefined);
    const timer = setTimeout(() => {
      readyReject(new Error(`${replicaId} not serving within ${READY_TIMEOUT_MS} ms (see ${out.path as string})`));
      child.kill('SIGKILL');
    }, READY_TIMEOUT_MS);
    lines(child, out, (line) => {
      if (incarnation.readyAt === undefined && line.startsWith('management: ')) {
        incarnation.readyAt = Date.now();
        clearTimeout(timer);
        readyResolve();
      }
      if (this.role === 'actors' && line.includes('"activation ')) this.cluster.onActivationLine(line, replicaId);
    });
    child.once('exit', () => {
      incarnation.exitedAt = Date.now();
      clearTimeout(timer);
      readyReject(new Error(`${replicaId} exited before serving (see ${out.path as string})`));
      out.end();
      if (this.current?.child === child) this.current = undefined;
      if (!this.stopping) this.restartSoon();
    });
    this.current = { child, incarnation, ready };
    await ready;
  }

  /** The supervisor: an exited process is replaced at once (its start retried until it serves). */
  private restartSoon(): void {
    if (this.restarting) return;
    this.restarting = (async () => {
      while (!this.stopping) {
        try {
          await this.start();
          break;
        } catch (err) {
          this.cluster.note(`${this.name}: restart failed, retrying in 1 s: ${String(err).split('\n')[0]}`);
          await new Promise((resolve) => setTimeout(resolve, 1_000));
        }
      }
    })().finally(() => (this.restarting = undefined));
  }

  /** Resolves once the slot has a serving process (after a restart in progress, say). */
  async whenServing(timeoutMs = 90_000): Promise<void> {
    const end = Date.now() + timeoutMs;
    while (!this.serving) {
      if (Date.now() > end) throw new Error(`${this.name} not serving within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  signal(signal: NodeJS.Signals): Incarnation | undefined {
    const current = this.current;
    if (!current) return undefined;
    if (signal === 'SIGKILL') current.incarnation.killedAt = Date.now();
    current.child.kill(signal);
    return current.incarnation;
  }

  /** Waits for the current process to exit (after a SIGTERM, say); SIGKILL after the deadline. */
  async exited(incarnation: Incarnation, timeoutMs = 30_000): Promise<void> {
    const end = Date.now() + timeoutMs;
    while (incarnation.exitedAt === undefined) {
      if (Date.now() > end) {
        this.cluster.note(`${incarnation.replicaId} still running ${timeoutMs} ms after SIGTERM: SIGKILL`);
        incarnation.killedAt = Date.now();
        process.kill(incarnation.pid, 'SIGKILL');
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** The end of the run: SIGTERM (a drain, so every activation logs its end), no restart. */
  async stop(): Promise<void> {
    this.stopping = true;
    await this.restarting;
    const current = this.current;
    if (!current) return;
    current.child.kill('SIGCONT');
    current.child.kill('SIGTERM');
    await this.exited(current.incarnation, 40_000);
  }
}

export class Cluster {
  readonly incarnations: Incarnation[] = [];
  readonly activationLines: ActivationLine[] = [];
  readonly slots: Slot[] = [];
  readonly notes: string[] = [];

  private constructor(readonly logDir: string) {}

  static async start(options: { addresses: StackAddresses; secrets: Record<string, string>; logDir: string; gateways: number; hosts: number; workers: number }): Promise<Cluster> {
    await mkdir(options.logDir, { recursive: true });
    const cluster = new Cluster(options.logDir);
    const add = async (name: string, role: SlotRole): Promise<Slot> => {
      const slot = new Slot(name, role, await slotEnv(options.addresses, options.secrets, role), cluster);
      cluster.slots.push(slot);
      return slot;
    };
    for (let i = 1; i <= options.hosts; i++) await add(`host${i}`, 'actors');
    for (let i = 1; i <= options.gateways; i++) await add(`gateway${i}`, 'gateway');
    for (let i = 1; i <= options.workers; i++) await add(`worker${i}`, 'worker');
    // Two at a time: a start loads the whole service, and this machine is shared.
    for (let i = 0; i < cluster.slots.length; i += 2) await Promise.all(cluster.slots.slice(i, i + 2).map((slot) => slot.start()));
    return cluster;
  }

  get gateways(): Slot[] {
    return this.slots.filter((slot) => slot.role === 'gateway');
  }

  get hosts(): Slot[] {
    return this.slots.filter((slot) => slot.role === 'actors');
  }

  note(text: string): void {
    this.notes.push(`${new Date().toISOString()} ${text}`);
  }

  onActivationLine(line: string, replicaId: string): void {
    const parsed = parseActivationLine(line, replicaId);
    if (parsed) this.activationLines.push(parsed);
  }

  async stop(): Promise<void> {
    // Gateways first (clients stop), then the worker, then the hosts drain.
    for (const role of ['gateway', 'worker', 'actors'] as const) await Promise.all(this.slots.filter((slot) => slot.role === role).map((slot) => slot.stop()));
  }
}

async function slotEnv(addresses: StackAddresses, secrets: Record<string, string>, role: SlotRole): Promise<Record<string, string>> {
  const env: Record<string, string> = {
    ...secrets,
    SVC_DATABASE_URL: addresses.databaseUrl,
    SVC_REDIS_URL: addresses.redisUrl,
    SVC_NATS_URL: addresses.natsUrl,
    SVC_NATS_REPLICAS: String(addresses.natsReplicas),
    SVC_TEMPORAL_ADDRESS: addresses.temporalAddress,
    SVC_DATA_DIR: await mkdtemp(join(tmpdir(), 'svc-soak-')),
    SVC_SERVER_HOST: '127.0.0.1',
    SVC_SERVER_PORT: String(await freePort()),
    SVC_GRPC_HOST: '127.0.0.1',
    SVC_GRPC_PORT: String(await freePort()),
    SVC_RTMP_ENABLED: 'false',
    // The load generators speak for many people, told apart by X-Forwarded-For.
    SVC_SERVER_TRUST_PROXY: 'true',
    SVC_SERVER_TRUSTED_PROXIES: '127.0.0.1/32',
    // The people sign in once, before the run: their tokens must outlive it (options.ts caps it).
    SVC_JWT_ACCESS_TOKEN_TTL_SECONDS: '3600',
    // Hosts at info: their activation lines are the single-activation audit.
    SVC_LOG_LEVEL: role === 'actors' ? 'info' : 'warn',
  };
  // The generated management token is only for TCP endpoints; the default Unix socket has none.
  delete env.SVC_MANAGEMENT_TOKEN;
  delete env.SVC_MANAGEMENT_ENDPOINT;
  return env;
}

function lines(child: ChildProcess, out: WriteStream, onLine: (line: string) => void): void {
  let partial = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    out.write(chunk);
    partial += chunk.toString();
    const parts = partial.split('\n');
    partial = parts.pop() ?? '';
    for (const line of parts) onLine(line);
  });
}

/** Kills every svc process still running when the soak exits however it exits. */
export function killOnExit(cluster: () => Cluster | undefined): void {
  process.once('exit', () => {
    for (const slot of cluster()?.slots ?? []) {
      slot.current?.child.kill('SIGCONT');
      slot.current?.child.kill('SIGKILL');
    }
  });
}
