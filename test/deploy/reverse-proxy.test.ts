/**
 * svc behind Debian's nginx, configured by the very file operators are told to use
 * (deploy/nginx/svc.conf, rendered with this machine's addresses by nginx-proxy.ts): nginx
 * terminates TLS for `watch.example.com` and `grpc.watch.example.com` in front of two gateways
 * on one database (`server.trust_proxy` with `trusted_proxies` 127.0.0.1/32, nginx's address).
 * Through it: the HTTP API on both gateways, a browser-like room socket (Origin checked against
 * the Host nginx passes), gRPC with grpc_pass (health and unary calls), a ranged read of the
 * media proxy, a livestream's HLS and HTTP-FLV paths, and a client address that the client's own
 * X-Forwarded-For cannot choose. Decisions: docs/2026-11-26-reverse-proxy.md.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import test from 'ava';
import { protoPath as healthProtoPath } from 'grpc-health-check';
import type { ChatMessage } from '../../actors/room/model.js';
import { connectGrpc, type SvcGrpc } from '../../gateways/grpc/client.js';
import { RealtimeClient } from '../../gateways/ws/client.js';
import { ticketPath } from '../../gateways/ws/protocol-constants.js';
import { waitFor } from '../fixtures/deadline.js';
import { startNginx, type Nginx } from '../fixtures/nginx.js';
import { selfSigned } from '../fixtures/self-signed.js';
import { BED_PASSWORD, startGatewayBed, type GatewayBed } from '../gateways/bed.js';
import { liveLink, publish } from '../media/live-fixtures.js';
import { GRPC_HOST, startReverseProxy, WEB_HOST, type ReverseProxy } from './nginx-proxy.js';
import { proxyClient, type ProxyClient } from './proxy-client.js';

interface Signed {
  username: string;
  token: string;
  userId: string;
  sessionId: string;
}

const MEDIA_SIZE = 3 * 1024 * 1024 + 4321;

let a: GatewayBed;
let b: GatewayBed;
let proxy: ReverseProxy;
let client: ProxyClient;
let grpcClient: SvcGrpc;
let grpcCredentials: grpc.ChannelCredentials;
let grpcTarget: string;
let grpcChannelOptions: grpc.ChannelOptions;
let media: Nginx;
let mediaBytes: Buffer;

test.before(async () => {
  const env = { SVC_MEDIA_PROXY_ALLOWED_NETWORKS: '127.0.0.0/8' };
  a = await startGatewayBed('reverse_proxy', { env: { ...env, SVC_REPLICA_ID: 'proxy-a' } });
  // The second gateway shares the database, NATS prefix and secrets; rooms live on the first
  // one's actor host, so this one only serves (as a gateway-only pool would).
  b = await startGatewayBed('reverse_proxy', { databaseUrl: a.databaseUrl, roles: ['gateway'], env: { ...env, SVC_REPLICA_ID: 'proxy-b' } });
  const tls = await selfSigned([WEB_HOST, GRPC_HOST]);
  proxy = await startReverseProxy({ http: [new URL(a.url).host, new URL(b.url).host], grpc: [a.grpcAddress, b.grpcAddress], tls });
  client = proxyClient(proxy.origin, tls.cert);
  // A client that resolves grpc.watch.example.com to the proxy: TLS and :authority name it.
  grpcTarget = `ipv4:127.0.0.1:${proxy.port}`;
  grpcCredentials = grpc.credentials.createSsl(tls.cert);
  grpcChannelOptions = { 'grpc.default_authority': `${GRPC_HOST}:${proxy.port}`, 'grpc.ssl_target_name_override': GRPC_HOST };
  grpcClient = connectGrpc(grpcTarget, { credentials: grpcCredentials, channelOptions: grpcChannelOptions });

  const dir = await mkdtemp(join(tmpdir(), 'svc-proxy-media-'));
  mediaBytes = randomBytes(MEDIA_SIZE);
  await writeFile(join(dir, 'movie.mp4'), mediaBytes);
  media = await startNginx({ root: dir });
});

test.after.always(async () => {
  grpcClient?.close();
  client?.agent.destroy();
  await proxy?.stop();
  await media?.stop();
  await b?.close();
  await a?.close();
});

const native = { 'x-svc-client': 'native' };

async function register(headers: Record<string, string> = {}): Promise<Signed> {
  const username = `proxy_${randomUUID().slice(0, 8)}`;
  const answer = await client.call('POST', '/api/auth/password/register', {
    body: { username, password: BED_PASSWORD },
    headers: { ...native, ...headers },
  });
  if (answer.status !== 201) throw new Error(`register through the proxy: ${answer.status} ${answer.body.toString()}`);
  const body = answer.json<{ accessToken: string; sessionId: string; user: { id: string } }>();
  return { username, token: body.accessToken, userId: body.user.id, sessionId: body.sessionId };
}

async function createRoom(owner: Signed): Promise<string> {
  const answer = await client.call('POST', '/api/rooms', { body: { name: 'Behind nginx' }, headers: { authorization: `Bearer ${owner.token}` } });
  if (answer.status !== 201) throw new Error(`create room through the proxy: ${answer.status} ${answer.body.toString()}`);
  return answer.json<{ room: { id: string } }>().room.id;
}

async function joinRoom(roomId: string, member: Signed): Promise<void> {
  const answer = await client.call('POST', `/api/rooms/${roomId}/join`, { body: {}, headers: { authorization: `Bearer ${member.token}` } });
  if (answer.status !== 200) throw new Error(`join through the proxy: ${answer.status} ${answer.body.toString()}`);
}

/** Requests a gateway has answered on `route`, from its own metrics listener. */
async function servedOn(bed: GatewayBed, route: string): Promise<number> {
  const text = await (await fetch(`${bed.metricsUrl}/metrics`)).text();
  return text
    .split('\n')
    .filter((line) => line.startsWith('http_requests_total{') && line.includes(`route="${route}"`))
    .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
}

// Serial (ava runs these before the others): least_conn would send every request to the gateway
// that is not holding another test's socket or stream.
test.serial('HTTP through nginx: sign-up, a room, and requests served by both gateways', async (t) => {
  const before = [await servedOn(a, '/api/auth/guest'), await servedOn(b, '/api/auth/guest')];
  for (let i = 0; i < 4; i++) {
    const guest = await client.call('POST', '/api/auth/guest', { body: { displayName: 'Visitor' }, headers: native });
    t.is(guest.status, 200, guest.body.toString());
  }
  const after = [await servedOn(a, '/api/auth/guest'), await servedOn(b, '/api/auth/guest')];
  t.true(after[0]! > before[0]!, 'the first gateway served some of the requests');
  t.true(after[1]! > before[1]!, 'the second gateway served some of the requests');
  t.is(after[0]! - before[0]! + after[1]! - before[1]!, 4);

  const owner = await register();
  const roomId = await createRoom(owner);
  const room = await client.call('GET', `/api/rooms/${roomId}`, { headers: { authorization: `Bearer ${owner.token}` } });
  t.is(room.status, 200);
  t.is(room.json<{ room: { name: string } }>().room.name, 'Behind nginx');
  // The web client is served too, with the same Host the sockets will be checked against.
  const page = await client.call('GET', '/');
  t.is(page.status, 200);
  t.regex(String(page.headers['content-type']), /text\/html/);
});

test('a browser-like room socket through nginx is accepted for the page origin and receives a chat message sent over gRPC', async (t) => {
  const owner = await register();
  const viewer = await register();
  const roomId = await createRoom(owner);
  await joinRoom(roomId, viewer);

  // As the web client does: a ticket from the API with the page's Origin, then the socket.
  const ticketAnswer = await client.call('POST', ticketPath(roomId), { headers: { authorization: `Bearer ${viewer.token}`, origin: proxy.origin } });
  t.is(ticketAnswer.status, 200, ticketAnswer.body.toString());
  const socket = await RealtimeClient.connect({ url: proxy.origin, roomId, ticket: ticketAnswer.json<{ ticket: string }>().ticket, origin: proxy.origin, agent: client.agent });
  try {
    const text = `hello through nginx ${randomUUID()}`;
    const sent = await grpcClient.as(owner.token).chat.Send({ roomId, text });
    t.truthy(sent.message);
    const event = await socket.waitForEvent((message) => message.event.type === 'chat.message' && (message.event as { message: ChatMessage }).message.text === text, 15_000);
    t.is((event.event as { message: ChatMessage }).message.userId, owner.userId);
  } finally {
    await socket.close();
  }
});

test('a page at another origin is refused through nginx as it is without it', async (t) => {
  const member = await register();
  const roomId = await createRoom(member);
  const answer = await client.call('POST', ticketPath(roomId), { headers: { authorization: `Bearer ${member.token}`, origin: 'https://evil.example' } });
  t.is(answer.status, 403);
  t.is(answer.json<{ code: string }>().code, 'forbidden');
});

test('gRPC through nginx (grpc_pass, h2c upstream): health SERVING and unary calls', async (t) => {
  const definition = protoLoader.loadSync(healthProtoPath, { enums: String, includeDirs: [healthProtoPath.replace(/health\/v1\/health\.proto$/, '')] });
  const Health = (grpc.loadPackageDefinition(definition) as unknown as { grpc: { health: { v1: { Health: grpc.ServiceClientConstructor } } } }).grpc.health.v1.Health;
  const health = new Health(grpcTarget, grpcCredentials, grpcChannelOptions);
  try {
    type Check = (request: unknown, options: grpc.CallOptions, callback: (err: grpc.ServiceError | null, value?: { status: string }) => void) => void;
    const check = (health as unknown as { Check: Check }).Check.bind(health);
    const status = await new Promise<{ status: string }>((resolve, reject) =>
      check({}, { deadline: Date.now() + 10_000 }, (err, value) => (err || !value ? reject(err ?? new Error('no answer')) : resolve(value))),
    );
    t.is(status.status, 'SERVING');
  } finally {
    health.close();
  }
  const guest = await grpcClient.auth.SignInAsGuest({ displayName: 'gRPC visitor' }, { deadlineMs: 10_000 });
  t.is(guest.principal, 'guest');
  const member = await register();
  const { session } = await grpcClient.auth.SignInWithPassword({ username: member.username, password: BED_PASSWORD }, { deadlineMs: 10_000 });
  const { room } = await grpcClient.as(session!.accessToken).rooms.CreateRoom({ name: 'Over gRPC', visibility: 'ROOM_VISIBILITY_PUBLIC' });
  t.is(room?.name, 'Over gRPC');
});

test('the media proxy through nginx: a Range read is 206 with exactly the asked bytes', async (t) => {
  const owner = await register();
  const roomId = await createRoom(owner);
  const auth = { authorization: `Bearer ${owner.token}` };
  const added = await client.call('POST', `/api/rooms/${roomId}/playlist`, { body: { title: 'Movie', url: `${media.url}/movie.mp4`, proxy: true }, headers: auth });
  t.is(added.status, 201, added.body.toString());
  const mediaId = added.json<{ item: { id: string } }>().item.id;
  const play = await client.call('GET', `/api/rooms/${roomId}/playlist/${mediaId}/play`, { headers: auth });
  t.is(play.status, 200, play.body.toString());
  // Relative: the player resolves it against the page, so it goes through nginx too.
  const source = new URL(play.json<{ sources: Array<{ url: string }> }>().sources[0]!.url, proxy.origin);
  t.regex(source.pathname, /^\/media\/proxy\/[^/]+\/movie\.mp4$/);

  const start = 1024 * 1024 - 7;
  const end = 2 * 1024 * 1024 + 11;
  const ranged = await client.call('GET', source.pathname + source.search, { headers: { range: `bytes=${start}-${end}` } });
  t.is(ranged.status, 206);
  t.is(ranged.headers['content-range'], `bytes ${start}-${end}/${MEDIA_SIZE}`);
  t.true(ranged.body.equals(mediaBytes.subarray(start, end + 1)), 'the bytes of the asked range');
});

test('a livestream through nginx: HTTP-FLV streams and the HLS playlist lists segments', async (t) => {
  const owner = await register();
  const roomId = await createRoom(owner);
  const auth = { authorization: `Bearer ${owner.token}` };
  const added = await client.call('POST', `/api/rooms/${roomId}/playlist`, { body: { title: 'On air', provider: 'live' }, headers: auth });
  t.is(added.status, 201, added.body.toString());
  const mediaId = added.json<{ item: { id: string } }>().item.id;
  // RTMP is not HTTP: nginx's http block does not carry it. Publishers reach a gateway's
  // rtmp.port directly (or through a TCP proxy), named by rtmp.customPublishHost.
  await a.set('rtmp', { customPublishHost: `127.0.0.1:${a.config.rtmp.port}` });
  const publishUrl = await waitFor(
    'the publish URL naming rtmp.customPublishHost on the gateway that answers',
    async () => {
      const key = await client.call('GET', `/api/rooms/${roomId}/playlist/${mediaId}/stream-key`, { headers: auth });
      const url = key.status === 200 ? key.json<{ url: string }>().url : '';
      return url.startsWith('rtmp://127.0.0.1:') ? url : undefined;
    },
    10_000,
    100,
  );
  const link = liveLink(a, { roomId, userId: owner.userId, sessionId: owner.sessionId, mediaId });

  const publisher = publish(publishUrl);
  try {
    const flv = await waitFor(
      'the live FLV through nginx',
      async () => {
        const head = await client.head(`${link}/stream.flv`, 3);
        return head.status === 200 ? head : undefined;
      },
      30_000,
      250,
    );
    t.is(flv.body.subarray(0, 3).toString('latin1'), 'FLV');
    const playlist = await waitFor(
      'a segment in the HLS playlist through nginx',
      async () => {
        const answer = await client.call('GET', `${link}/index.m3u8`);
        const text = answer.body.toString('utf8');
        return answer.status === 200 && /^seg\d+\.ts$/m.test(text) ? text : undefined;
      },
      30_000,
      250,
    );
    const segment = /^(seg\d+\.ts)$/m.exec(playlist)![1]!;
    const bytes = await client.call('GET', `${link}/${segment}`);
    t.is(bytes.status, 200);
    t.is(bytes.body[0], 0x47, 'an MPEG-TS segment (sync byte)');
  } finally {
    await publisher.stop();
  }
});

test('the client address is the one nginx saw, whatever X-Forwarded-For the client wrote', async (t) => {
  const member = await register({ 'x-forwarded-for': '6.6.6.6' });
  const sessions = await client.call('GET', '/api/auth/sessions', { headers: { authorization: `Bearer ${member.token}`, 'x-forwarded-for': '6.6.6.6, 7.7.7.7' } });
  t.is(sessions.status, 200);
  const current = sessions.json<{ sessions: Array<{ id: string; ip: string }> }>().sessions.find((session) => session.id === member.sessionId);
  t.is(current?.ip, client.address);
});
