/**
 * The routes of the soak's NATS cluster through TCP proxies on loopback, one per ordered pair of
 * nodes, so that one node can be cut off from the other two while the svc processes connected
 * to it stay connected (the nats-partition fault). On one machine every node shares 127.0.0.1,
 * so a firewall rule could not tell their route connections apart; a proxy per pair can.
 *
 * Each node's routes name its proxies (infra/stack.sh's SVC_STACK_NATS_ROUTES_<k>), and each
 * node advertises a cluster address nobody listens on (SVC_STACK_NATS_ADVERTISE_<k>): NATS
 * gossips route addresses, and a node that dialled another's real port directly would bypass
 * the proxies and survive the partition. The explicit routes through the proxies are all the
 * cluster needs.
 */
import { createServer, connect, type Server, type Socket } from 'node:net';
import { freePort } from './stack.js';

/** A port on 127.0.0.1 that refuses connections: the advertised cluster address (see above). */
const NOBODY = '127.0.0.1:1';

interface Pipe {
  from: number;
  to: number;
  server: Server;
  port: number;
  sockets: Set<Socket>;
}

export class RouteProxies {
  private readonly pipes: Pipe[] = [];
  /** The node cut off from the others, if any (0-based). */
  private cut: number | undefined;

  private constructor(private readonly clusterPorts: number[]) {}

  /** Proxies for `nodes` nodes whose route ports are picked here. */
  static async start(nodes: number): Promise<RouteProxies> {
    const clusterPorts: number[] = [];
    for (let k = 0; k < nodes; k++) clusterPorts.push(await freePort());
    const proxies = new RouteProxies(clusterPorts);
    for (let from = 0; from < nodes; from++) {
      for (let to = 0; to < nodes; to++) if (from !== to) proxies.pipes.push(await proxies.open(from, to));
    }
    return proxies;
  }

  /** The variables infra/stack.sh starts the nodes with: route ports, routes and advertised addresses. */
  env(): Record<string, string> {
    const env: Record<string, string> = {};
    this.clusterPorts.forEach((port, k) => {
      const node = k + 1;
      env[node === 1 ? 'SVC_STACK_NATS_CLUSTER_PORT' : `SVC_STACK_NATS${node}_CLUSTER_PORT`] = String(port);
      env[`SVC_STACK_NATS_ROUTES_${node}`] = this.pipes
        .filter((pipe) => pipe.from === k)
        .map((pipe) => `nats-route://127.0.0.1:${pipe.port}`)
        .join(',');
      env[`SVC_STACK_NATS_ADVERTISE_${node}`] = NOBODY;
    });
    return env;
  }

  /** Cuts node `k` (0-based) off: its route connections close and new ones are refused. */
  partition(k: number): void {
    this.cut = k;
    for (const pipe of this.pipes) {
      if (this.severed(pipe)) for (const socket of pipe.sockets) socket.destroy();
    }
  }

  heal(): void {
    this.cut = undefined;
  }

  async close(): Promise<void> {
    for (const pipe of this.pipes) {
      for (const socket of pipe.sockets) socket.destroy();
      await new Promise((resolve) => pipe.server.close(resolve));
    }
  }

  private severed(pipe: Pipe): boolean {
    return this.cut !== undefined && (pipe.from === this.cut || pipe.to === this.cut);
  }

  private async open(from: number, to: number): Promise<Pipe> {
    const sockets = new Set<Socket>();
    const pipe: Pipe = { from, to, sockets, port: 0, server: createServer() };
    const track = (socket: Socket): void => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => socket.destroy());
    };
    pipe.server.on('connection', (inbound) => {
      track(inbound);
      if (this.severed(pipe)) {
        inbound.destroy();
        return;
      }
      const outbound = connect(this.clusterPorts[to]!, '127.0.0.1');
      track(outbound);
      inbound.pipe(outbound);
      outbound.pipe(inbound);
      const both = (): void => {
        inbound.destroy();
        outbound.destroy();
      };
      inbound.on('close', both);
      outbound.on('close', both);
    });
    await new Promise<void>((resolve, reject) => {
      pipe.server.once('error', reject);
      pipe.server.listen(0, '127.0.0.1', () => resolve());
    });
    const address = pipe.server.address();
    pipe.port = typeof address === 'object' && address ? address.port : 0;
    return pipe;
  }
}
