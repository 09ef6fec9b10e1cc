/**
 * The setup the actor-runtime tests share: a counter database and a subject prefix of the
 * test's own, hosts running the counter actor (child processes a test can kill, pause or drain,
 * or one inside the test process when nothing has to die), a client connection, and teardown
 * with the test. What a test does to the hosts stays in the test.
 */
import type { ExecutionContext } from 'ava';
import type { NatsConnection } from 'nats';
import { ActorClient } from '../../../actors/runtime/client.js';
import { ActorHostProcess, connectNats, counterDatabase, uniquePrefix, type HostSettings } from '../../fixtures/actor-host-process.js';
import { startLocalHost, type LocalHost } from '../../fixtures/actor-host-local.js';

/** The caller the runtime tests send as (the counter actor does not look at it). */
export const caller = { userId: 'tester' };

/** A subject prefix and a migrated counter database no other test uses. */
export interface CounterSpace {
  prefix: string;
  pgUrl: string;
}

export async function counterSpace(label: string): Promise<CounterSpace> {
  return { prefix: uniquePrefix(label), pgUrl: await counterDatabase(`runtime_${label}`) };
}

type Teardown = Pick<ExecutionContext, 'teardown'>;
type ProcessOptions = Omit<HostSettings, 'hostId' | 'prefix' | 'pgUrl'>;

export interface ProcessPool extends CounterSpace {
  /** Every host started so far (killed at teardown, whatever the test did to them). */
  hosts: ActorHostProcess[];
  /** The test's own NATS connection (the natsUrl of the options, else the test stack's). */
  nc: NatsConnection;
  client: ActorClient;
  /** Starts one more host `${prefix}-${name}` with the pool's options (overridable). */
  addHost: (name: string, options?: ProcessOptions) => Promise<ActorHostProcess>;
}

/**
 * Host processes named `${prefix}-${name}` for each of `names`, started together, and a client
 * connection; closed and killed when the test ends.
 */
export async function processPool(t: Teardown, label: string, names: string[], options: ProcessOptions = {}): Promise<ProcessPool> {
  const space = await counterSpace(label);
  const nc = await connectNats(`${space.prefix}-client`, ...(options.natsUrl ? [options.natsUrl] : []));
  const hosts: ActorHostProcess[] = [];
  t.teardown(async () => {
    await nc.close();
    await Promise.all(hosts.map((host) => host.kill()));
  });
  const addHost = async (name: string, overrides: ProcessOptions = {}): Promise<ActorHostProcess> => {
    const host = await ActorHostProcess.start({ hostId: `${space.prefix}-${name}`, ...space, ...options, ...overrides });
    hosts.push(host);
    return host;
  };
  // Every start settles before a failure is thrown: a host still starting when another failed
  // would otherwise join `hosts` after the teardown ran, and outlive the test.
  const started = await Promise.allSettled(names.map((name) => addHost(name)));
  const failed = started.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (failed) throw failed.reason;
  return { ...space, hosts, nc, client: new ActorClient(nc, space.prefix), addHost };
}

type LocalOptions = Omit<Parameters<typeof startLocalHost>[0], 'hostId' | 'prefix' | 'pgUrl'>;

export interface LocalSpace extends CounterSpace {
  /** The host `${prefix}-host` inside the test process; `local.nc` is its connection. */
  local: LocalHost;
  /** A client on the host's connection. */
  client: ActorClient;
  /** Another in-process host `${prefix}-${name}` on the same prefix and database, closed with the rest. */
  addHost: (name: string, options?: LocalOptions) => Promise<LocalHost>;
  close(): Promise<void>;
}

/** One in-process host and a client on its connection; the caller closes it (for `before` hooks). */
export async function startLocalSpace(label: string, options: LocalOptions = {}): Promise<LocalSpace> {
  const space = await counterSpace(label);
  const others: LocalHost[] = [];
  const local = await startLocalHost({ hostId: `${space.prefix}-host`, ...space, ...options });
  return {
    ...space,
    local,
    client: new ActorClient(local.nc, space.prefix),
    addHost: async (name, overrides = {}) => {
      const host = await startLocalHost({ hostId: `${space.prefix}-${name}`, ...space, ...options, ...overrides });
      others.push(host);
      return host;
    },
    close: async () => {
      for (const host of [...others, local]) await host.close();
    },
  };
}

/** `startLocalSpace`, closed when the test ends. */
export async function localSpace(t: Teardown, label: string, options: LocalOptions = {}): Promise<LocalSpace> {
  const space = await startLocalSpace(label, options);
  t.teardown(() => space.close());
  return space;
}
