/**
 * What a user does through a reverse proxy, each step asserted: the same checks for every proxy
 * configuration we document (nginx, Caddy), so both are held to one standard.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ExecutionContext } from 'ava';
import type { ChatMessage } from '../../contracts/room/model.js';
import { RealtimeClient } from '../harness/ws-client.js';
import { ticketPath } from '../../contracts/ws/constants.js';
import { waitFor } from '../fixtures/deadline.js';
import { startNginx, type Nginx } from '../fixtures/nginx.js';
import { BED_PASSWORD, type GatewayBed } from '../gateways/bed.js';
import { liveLink, publish } from '../media/live-fixtures.js';
import { selfSigned } from '../fixtures/self-signed.js';
import type { ProxyTargets, ReverseProxy } from './nginx-proxy.js';
import { GRPC_HOST, servedOn, startTwoGateways, throughProxy, WEB_HOST, type Proxied } from './proxied-service.js';

export interface World {
  proxied: Proxied;
  /** The gateway with the actors. */
  a: GatewayBed;
  /** The gateway-only one. */
  b: GatewayBed;
  media: MediaOrigin;
  /** Stops the proxy, the media origin and both gateways. */
  close(): Promise<void>;
}

/** Two gateways, a proxy that `start` puts in front of them with a test certificate, and a media origin. */
export async function proxiedWorld(label: string, start: (targets: ProxyTargets) => Promise<ReverseProxy>): Promise<World> {
  const [a, b] = await startTwoGateways(label);
  const tls = await selfSigned([WEB_HOST, GRPC_HOST]);
  const proxy = await start({ http: [new URL(a.url).host, new URL(b.url).host], grpc: [a.grpcAddress, b.grpcAddress], tls });
  const proxied = throughProxy(proxy.port, tls.cert);
  const media = await startMediaOrigin();
  return {
    a,
    b,
    proxied,
    media,
    async close() {
      proxied.close();
      await proxy.stop();
      await media.server.stop();
      await b.close();
      await a.close();
    },
  };
}

/** A Range-capable upstream (Debian's nginx) serving one random file, `movie.mp4`. */
export interface MediaOrigin {
  url: string;
  bytes: Buffer;
  server: Nginx;
}

export async function startMediaOrigin(size = 3 * 1024 * 1024 + 4321): Promise<MediaOrigin> {
  const dir = await mkdtemp(join(tmpdir(), 'svc-proxy-media-'));
  const bytes = randomBytes(size);
  await writeFile(join(dir, 'movie.mp4'), bytes);
  const server = await startNginx({ root: dir });
  return { url: `${server.url}/movie.mp4`, bytes, server };
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/**
 * Sign-up, guests and a room over HTTP, the web client page, and requests served by both
 * gateways (their own request counters). Run it serially: with least_conn, a socket or stream
 * another test holds would steer every request to the other gateway.
 */
export async function httpOnBothGateways(t: ExecutionContext, { proxied, a, b }: World): Promise<void> {
  const route = '/api/auth/guest';
  const before = [await servedOn(a, route), await servedOn(b, route)];
  // Least-connections picks at random between idle gateways (Caddy) or in turn (nginx): a few
  // sequential requests may all land on one, forty at random do not (odds 2^-39).
  let sent = 0;
  let after = before;
  while (sent < 40 && (after[0] === before[0] || after[1] === before[1])) {
    const guest = await proxied.client.call('POST', route, { body: { displayName: 'Visitor' }, headers: { 'x-svc-client': 'native' } });
    t.is(guest.status, 200, guest.body.toString());
    sent += 1;
    after = [await servedOn(a, route), await servedOn(b, route)];
  }
  t.true(after[0]! > before[0]!, 'the first gateway served some of the requests');
  t.true(after[1]! > before[1]!, 'the second gateway served some of the requests');
  t.is(after[0]! - before[0]! + after[1]! - before[1]!, sent);

  const owner = await proxied.register();
  const roomId = await proxied.createRoom(owner, 'Movie night');
  const room = await proxied.client.call('GET', `/api/rooms/${roomId}`, { headers: bearer(owner.token) });
  t.is(room.status, 200);
  t.is(room.json<{ room: { name: string } }>().room.name, 'Movie night');
  // The web client, from the same Host the socket will be checked against.
  const page = await proxied.client.call('GET', '/');
  t.is(page.status, 200);
  t.regex(String(page.headers['content-type']), /text\/html/);
}

/** A ticket and a room socket with the page's Origin, as the web client opens them; a chat message sent over gRPC arrives on it. */
export async function roomSocket(t: ExecutionContext, { proxied }: World): Promise<void> {
  const owner = await proxied.register();
  const viewer = await proxied.register();
  const roomId = await proxied.createRoom(owner);
  await proxied.joinRoom(roomId, viewer);

  const ticket = await proxied.client.call('POST', ticketPath(roomId), { headers: { ...bearer(viewer.token), origin: proxied.origin } });
  t.is(ticket.status, 200, ticket.body.toString());
  const socket = await RealtimeClient.connect({ url: proxied.origin, roomId, ticket: ticket.json<{ ticket: string }>().ticket, origin: proxied.origin, agent: proxied.client.agent });
  try {
    const text = `hello through the proxy ${randomUUID()}`;
    const sent = await proxied.grpc.as(owner.token).chat.Send({ roomId, text });
    t.is(sent.message?.text, text);
    const event = await socket.waitForEvent((message) => message.event.type === 'chat.message' && (message.event as { message: ChatMessage }).message.text === text, 15_000);
    t.is((event.event as { message: ChatMessage }).message.userId, owner.userId);
  } finally {
    await socket.close();
  }
}

/** The proxy does not turn a foreign page into a same-origin one. */
export async function foreignOriginRefused(t: ExecutionContext, { proxied }: World): Promise<void> {
  const member = await proxied.register();
  const roomId = await proxied.createRoom(member);
  const answer = await proxied.client.call('POST', ticketPath(roomId), { headers: { ...bearer(member.token), origin: 'https://evil.example' } });
  t.is(answer.status, 403);
  t.is(answer.json<{ code: string }>().code, 'forbidden');
}

/** gRPC health SERVING and unary calls (guest and password sign-in, CreateRoom). */
export async function grpcCalls(t: ExecutionContext, { proxied }: World): Promise<void> {
  t.is(await proxied.health(), 'SERVING');
  const guest = await proxied.grpc.auth.SignInAsGuest({ displayName: 'gRPC visitor' }, { deadlineMs: 10_000 });
  t.is(guest.principal, 'guest');
  const member = await proxied.register();
  const { session } = await proxied.grpc.auth.SignInWithPassword({ username: member.username, password: BED_PASSWORD }, { deadlineMs: 10_000 });
  const { room } = await proxied.grpc.as(session!.accessToken).rooms.CreateRoom({ name: 'Over gRPC', visibility: 'ROOM_VISIBILITY_PUBLIC' });
  t.is(room?.name, 'Over gRPC');
}

/** A Range read of the media proxy: 206, Content-Range, exactly the asked bytes. */
export async function rangedRead(t: ExecutionContext, { proxied, media }: World): Promise<void> {
  const owner = await proxied.register();
  const roomId = await proxied.createRoom(owner);
  const added = await proxied.client.call('POST', `/api/rooms/${roomId}/playlist`, { body: { title: 'Movie', url: media.url, proxy: true }, headers: bearer(owner.token) });
  t.is(added.status, 201, added.body.toString());
  const mediaId = added.json<{ item: { id: string } }>().item.id;
  const play = await proxied.client.call('GET', `/api/rooms/${roomId}/playlist/${mediaId}/play`, { headers: bearer(owner.token) });
  t.is(play.status, 200, play.body.toString());
  // Relative: the player resolves it against the page, so it goes through the proxy too.
  const source = new URL(play.json<{ sources: Array<{ url: string }> }>().sources[0]!.url, proxied.origin);
  t.regex(source.pathname, /^\/media\/proxy\/[^/]+\/movie\.mp4$/);

  const size = media.bytes.length;
  const start = 1024 * 1024 - 7;
  const end = 2 * 1024 * 1024 + 11;
  const ranged = await proxied.client.call('GET', source.pathname + source.search, { headers: { range: `bytes=${start}-${end}` } });
  t.is(ranged.status, 206);
  t.is(ranged.headers['content-range'], `bytes ${start}-${end}/${size}`);
  t.true(ranged.body.equals(media.bytes.subarray(start, end + 1)), 'the bytes of the asked range');
}

/** A livestream published with ffmpeg: HTTP-FLV starts streaming, HLS lists a segment that is MPEG-TS. */
export async function livestream(t: ExecutionContext, { proxied, a }: World): Promise<void> {
  const owner = await proxied.register();
  const roomId = await proxied.createRoom(owner);
  const added = await proxied.client.call('POST', `/api/rooms/${roomId}/playlist`, { body: { title: 'On air', provider: 'live' }, headers: bearer(owner.token) });
  t.is(added.status, 201, added.body.toString());
  const mediaId = added.json<{ item: { id: string } }>().item.id;
  // RTMP is not HTTP and does not go through the proxy: publishers reach a gateway's rtmp.port
  // (or a TCP balancer), named by rtmp.customPublishHost.
  await a.set('rtmp', { customPublishHost: `127.0.0.1:${a.config.rtmp.port}` });
  const publishUrl = await waitFor(
    'the publish URL naming rtmp.customPublishHost, from whichever gateway answers',
    async () => {
      const key = await proxied.client.call('GET', `/api/rooms/${roomId}/playlist/${mediaId}/stream-key`, { headers: bearer(owner.token) });
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
      'the live FLV through the proxy',
      async () => {
        const head = await proxied.client.head(`${link}/stream.flv`, 3);
        return head.status === 200 ? head : undefined;
      },
      30_000,
      250,
    );
    t.is(flv.body.subarray(0, 3).toString('latin1'), 'FLV');
    const playlist = await waitFor(
      'a segment in the HLS playlist through the proxy',
      async () => {
        const answer = await proxied.client.call('GET', `${link}/index.m3u8`);
        const text = answer.body.toString('utf8');
        return answer.status === 200 && /^seg\d+\.ts$/m.test(text) ? text : undefined;
      },
      30_000,
      250,
    );
    const segment = /^(seg\d+\.ts)$/m.exec(playlist)![1]!;
    const bytes = await proxied.client.call('GET', `${link}/${segment}`);
    t.is(bytes.status, 200);
    t.is(bytes.body[0], 0x47, 'an MPEG-TS segment (sync byte)');
  } finally {
    await publisher.stop();
  }
}

/** A session opened with a client-written X-Forwarded-For is listed with the address the proxy saw. */
export async function clientAddress(t: ExecutionContext, { proxied }: World): Promise<void> {
  const member = await proxied.register({ 'x-forwarded-for': '6.6.6.6' });
  const sessions = await proxied.client.call('GET', '/api/auth/sessions', { headers: { ...bearer(member.token), 'x-forwarded-for': '6.6.6.6, 7.7.7.7' } });
  t.is(sessions.status, 200);
  const current = sessions.json<{ sessions: Array<{ id: string; ip: string }> }>().sessions.find((session) => session.id === member.sessionId);
  t.is(current?.ip, proxied.client.address);
}
