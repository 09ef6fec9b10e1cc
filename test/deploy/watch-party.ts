/**
 * A watch party driven from outside, against a deployed svc (a container, a Compose stack, pods):
 * an account signs in and makes a room, a guest joins it from the share link, both hold a
 * WebSocket, and what the host does (a chat message, a playlist item, play) reaches the guest's
 * socket. Only the public HTTP API and the socket are used, as the web client uses them.
 */
import { RealtimeClient, requestTicket } from '../harness/ws-client.js';

export interface PartyOptions {
  /** The service's public base URL, e.g. `http://127.0.0.1:8080`. */
  url: string;
  username: string;
  password: string;
}

export interface PartyResult {
  roomId: string;
  /** The chat text the guest's socket received. */
  chatSeenByGuest: string;
  /** Whether the guest's socket saw the room start playing the host's item. */
  playingSeenByGuest: boolean;
  /** The protocol version both sockets were served. */
  protocol: string;
}

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

async function call(url: string, method: string, path: string, body?: unknown, token?: string): Promise<Answer> {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: {
      // A native client: tokens in the body rather than cookies.
      'x-svc-client': 'native',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(20_000),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

async function expectOk(url: string, method: string, path: string, body?: unknown, token?: string): Promise<Record<string, unknown>> {
  const answer = await call(url, method, path, body, token);
  if (answer.status >= 300) throw new Error(`${method} ${path} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer.body;
}

export async function watchParty(options: PartyOptions): Promise<PartyResult> {
  const { url } = options;
  // Browsers send the page's own origin; the socket accepts it because it is the Host.
  const origin = new URL(url).origin;

  const host = await expectOk(url, 'POST', '/api/auth/password/login', { username: options.username, password: options.password });
  const hostToken = host.accessToken as string;
  const created = await expectOk(url, 'POST', '/api/rooms', { name: 'Deployed party', visibility: 'public' }, hostToken);
  const roomId = (created.room as { id: string }).id;

  const guest = await expectOk(url, 'POST', '/api/auth/guest', { displayName: 'Visitor' });
  const guestToken = guest.accessToken as string;
  await expectOk(url, 'POST', `/api/rooms/${roomId}/join`, {}, guestToken);

  const open = async (token: string): Promise<RealtimeClient> =>
    RealtimeClient.connect({ url, roomId, ticket: await requestTicket(url, roomId, token), origin, timeoutMs: 20_000 });
  const hostSocket = await open(hostToken);
  const guestSocket = await open(guestToken);
  try {
    const text = `hello from ${options.username}`;
    const chatSeen = guestSocket.waitForEvent((message) => message.event.type === 'chat.message', 20_000);
    await expectOk(url, 'POST', `/api/rooms/${roomId}/chat`, { text }, hostToken);
    const chatEvent = (await chatSeen).event as { type: 'chat.message'; message: { text: string } };

    await expectOk(url, 'POST', `/api/rooms/${roomId}/playlist`, { title: 'Trailer', url: 'https://media.example.com/trailer.mp4' }, hostToken);
    const playingSeen = guestSocket.waitForEvent((message) => message.event.type === 'playback' && (message.event.playback as { playing: boolean }).playing, 20_000);
    await expectOk(url, 'POST', `/api/rooms/${roomId}/playback/play`, {}, hostToken);
    await playingSeen;

    return { roomId, chatSeenByGuest: chatEvent.message.text, playingSeenByGuest: true, protocol: guestSocket.protocol };
  } finally {
    await Promise.allSettled([hostSocket.close(), guestSocket.close()]);
  }
}
