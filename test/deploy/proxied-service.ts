/**
 * What the reverse-proxy tests share: two gateways on one database (the pool a proxy balances),
 * and svc as a client on the far side of a TLS proxy sees it: HTTP and sockets at
 * `https://watch.example.com:<port>`, gRPC at `grpc.watch.example.com:<port>`, both resolved to
 * the proxy on 127.0.0.1, trusting the test certificate.
 */
import { randomUUID } from 'node:crypto';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { protoPath as healthProtoPath } from 'grpc-health-check';
import { connectGrpc, type SvcGrpc } from '../../gateways/grpc/client.js';
import { BED_PASSWORD, startGatewayBed, type GatewayBed } from '../gateways/bed.js';
import { proxyClient, type ProxyClient } from './proxy-client.js';

export const WEB_HOST = 'watch.example.com';
export const GRPC_HOST = 'grpc.watch.example.com';

export interface Signed {
  username: string;
  token: string;
  userId: string;
  sessionId: string;
}

/** Two gateways sharing a database, NATS prefix and secrets; rooms live on the first one's actors. */
export async function startTwoGateways(label: string): Promise<[GatewayBed, GatewayBed]> {
  const env = { SVC_MEDIA_PROXY_ALLOWED_NETWORKS: '127.0.0.0/8' };
  const a = await startGatewayBed(label, { env: { ...env, SVC_REPLICA_ID: `${label}-a` } });
  try {
    // Only serves, as a gateway-only pool would.
    const b = await startGatewayBed(label, { databaseUrl: a.databaseUrl, roles: ['gateway'], env: { ...env, SVC_REPLICA_ID: `${label}-b` } });
    return [a, b];
  } catch (err) {
    await a.close();
    throw err;
  }
}

export interface Proxied {
  /** `https://watch.example.com:<port>`: what a browser would have in its address bar. */
  origin: string;
  client: ProxyClient;
  grpc: SvcGrpc;
  /** grpc.health.v1 Health/Check of the whole server, through the proxy. */
  health(): Promise<string>;
  register(headers?: Record<string, string>): Promise<Signed>;
  createRoom(owner: Signed, name?: string): Promise<string>;
  joinRoom(roomId: string, member: Signed): Promise<void>;
  close(): void;
}

export function throughProxy(port: number, ca: Buffer): Proxied {
  const origin = `https://${WEB_HOST}:${port}`;
  const client = proxyClient(origin, ca);
  // Resolves grpc.watch.example.com to the proxy itself; TLS and :authority still name it.
  const target = `ipv4:127.0.0.1:${port}`;
  const credentials = grpc.credentials.createSsl(ca);
  const channelOptions: grpc.ChannelOptions = { 'grpc.default_authority': `${GRPC_HOST}:${port}`, 'grpc.ssl_target_name_override': GRPC_HOST };
  const svcGrpc = connectGrpc(target, { credentials, channelOptions });
  const native = { 'x-svc-client': 'native' };
  const bearer = (member: Signed) => ({ authorization: `Bearer ${member.token}` });

  return {
    origin,
    client,
    grpc: svcGrpc,
    async health() {
      const definition = protoLoader.loadSync(healthProtoPath, { enums: String, includeDirs: [healthProtoPath.replace(/health\/v1\/health\.proto$/, '')] });
      const Health = (grpc.loadPackageDefinition(definition) as unknown as { grpc: { health: { v1: { Health: grpc.ServiceClientConstructor } } } }).grpc.health.v1.Health;
      const health = new Health(target, credentials, channelOptions);
      type Check = (request: unknown, options: grpc.CallOptions, callback: (err: grpc.ServiceError | null, value?: { status: string }) => void) => void;
      const check = (health as unknown as { Check: Check }).Check.bind(health);
      try {
        return await new Promise<string>((resolve, reject) =>
          check({}, { deadline: Date.now() + 10_000 }, (err, value) => (err || !value ? reject(err ?? new Error('no answer')) : resolve(value.status))),
        );
      } finally {
        health.close();
      }
    },
    async register(headers = {}) {
      const username = `proxy_${randomUUID().slice(0, 8)}`;
      const answer = await client.call('POST', '/api/auth/password/register', { body: { username, password: BED_PASSWORD }, headers: { ...native, ...headers } });
      if (answer.status !== 201) throw new Error(`register through the proxy: ${answer.status} ${answer.body.toString()}`);
      const body = answer.json<{ accessToken: string; sessionId: string; user: { id: string } }>();
      return { username, token: body.accessToken, userId: body.user.id, sessionId: body.sessionId };
    },
    async createRoom(owner, name = 'Behind the proxy') {
      const answer = await client.call('POST', '/api/rooms', { body: { name }, headers: bearer(owner) });
      if (answer.status !== 201) throw new Error(`create room through the proxy: ${answer.status} ${answer.body.toString()}`);
      return answer.json<{ room: { id: string } }>().room.id;
    },
    async joinRoom(roomId, member) {
      const answer = await client.call('POST', `/api/rooms/${roomId}/join`, { body: {}, headers: bearer(member) });
      if (answer.status !== 200) throw new Error(`join through the proxy: ${answer.status} ${answer.body.toString()}`);
    },
    close() {
      svcGrpc.close();
      client.agent.destroy();
    },
  };
}

/** Requests a gateway has answered on `route`, from its own metrics listener. */
export async function servedOn(bed: GatewayBed, route: string): Promise<number> {
  const text = await (await fetch(`${bed.metricsUrl}/metrics`)).text();
  return text
    .split('\n')
    .filter((line) => line.startsWith('http_requests_total{') && line.includes(`route="${route}"`))
    .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
}
