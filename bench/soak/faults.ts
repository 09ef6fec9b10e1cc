/**
 * One fault at a time, every 10-20 s after the previous one ended, drawn from the chosen mix
 * with the seeded generator: kill -9 of any svc process (the supervisor starts a new one),
 * SIGSTOP of an actor host or a gateway for 3-5 s (past the 1.5 s lease) then SIGCONT, SIGTERM
 * of any svc process (a new one once it has exited), and a restart of NATS, PostgreSQL, Redis or
 * Temporal. Each fault's start and end are recorded, with what it hit.
 */
import type { Cluster, Incarnation, Slot } from './cluster.js';
import type { Dependency, PrivateStack } from './dependencies.js';
import type { FaultKind } from './options.js';
import type { Random } from './random.js';

export interface Fault {
  kind: FaultKind;
  /** The slot (svc faults) or the dependency. */
  target: string;
  role: 'gateway' | 'actors' | 'worker' | 'dependency';
  /** The incarnation hit (svc faults). */
  replicaId: string | undefined;
  startAt: number;
  /** The SIGCONT (stop), or when the replacement / restarted dependency was serving. */
  endAt: number | undefined;
  /** What recovery is measured from: the start, or for a SIGSTOP its end. */
  referenceAt: number;
  error: string | undefined;
}

export class FaultInjector {
  readonly faults: Fault[] = [];
  private stopped = false;
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;

  constructor(
    private readonly kinds: readonly FaultKind[],
    private readonly cluster: Cluster,
    private readonly stack: PrivateStack,
    private readonly random: Random,
    private readonly log: (line: string) => void,
  ) {}

  start(): void {
    if (this.kinds.length === 0) return;
    this.loop = (async () => {
      while (!this.stopped) {
        await this.pause(this.random.int(10_000, 20_000));
        if (this.stopped) break;
        await this.inject(this.random.pick(this.kinds));
      }
    })();
  }

  /** No new faults; resolves once the one in progress has ended. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    await this.loop;
  }

  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  private async inject(kind: FaultKind): Promise<void> {
    switch (kind) {
      case 'kill':
        return this.signalSlot(kind, this.random.pick(this.cluster.slots), 'SIGKILL');
      case 'term':
        return this.signalSlot(kind, this.random.pick(this.cluster.slots), 'SIGTERM');
      case 'stop':
        return this.stopSlot(this.random.pick([...this.cluster.hosts, ...this.cluster.hosts, ...this.cluster.gateways]));
      default:
        return this.restart(kind);
    }
  }

  private record(kind: FaultKind, target: string, role: Fault['role'], incarnation: Incarnation | undefined): Fault {
    const now = Date.now();
    const fault: Fault = { kind, target, role, replicaId: incarnation?.replicaId, startAt: now, endAt: undefined, referenceAt: now, error: undefined };
    this.faults.push(fault);
    return fault;
  }

  private async signalSlot(kind: 'kill' | 'term', slot: Slot, signal: 'SIGKILL' | 'SIGTERM'): Promise<void> {
    await slot.whenServing();
    const incarnation = slot.current!.incarnation;
    const fault = this.record(kind, slot.name, slot.role, incarnation);
    slot.signal(signal);
    this.log(`fault ${kind} ${slot.name} (${incarnation.replicaId})`);
    try {
      await slot.exited(incarnation);
      await slot.whenServing();
    } catch (err) {
      fault.error = String(err);
    }
    fault.endAt = Date.now();
    this.log(`fault ${kind} ${slot.name}: replaced after ${((fault.endAt - fault.startAt) / 1000).toFixed(2)} s`);
  }

  private async stopSlot(slot: Slot): Promise<void> {
    await slot.whenServing();
    const incarnation = slot.current!.incarnation;
    const fault = this.record('stop', slot.name, slot.role, incarnation);
    const ms = this.random.int(3_000, 5_000);
    slot.signal('SIGSTOP');
    this.log(`fault stop ${slot.name} (${incarnation.replicaId}) for ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, ms));
    slot.signal('SIGCONT');
    fault.endAt = Date.now();
    fault.referenceAt = fault.endAt;
  }

  private async restart(kind: Dependency & FaultKind): Promise<void> {
    const fault = this.record(kind, kind, 'dependency', undefined);
    this.log(`fault restart ${kind}`);
    try {
      await this.stack.stop(kind);
      await this.stack.start(kind);
    } catch (err) {
      fault.error = String(err);
      this.log(`restart of ${kind} failed: ${String(err)}`);
      await this.stack.start(kind).catch(() => undefined);
    }
    fault.endAt = Date.now();
    this.log(`fault restart ${kind}: back after ${((fault.endAt - fault.startAt) / 1000).toFixed(2)} s`);
  }
}
