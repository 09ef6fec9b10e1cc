/**
 * The scenario driver over the public HTTP API for commands and the realtime WebSocket for
 * events, as the web client uses them: a ticket from `POST /api/rooms/{id}/realtime/ticket`,
 * then the socket with a browser's Origin.
 */
import { RealtimeClient, requestTicket } from '../../harness/ws-client.js';
import { ALLOWED_ORIGIN, type GatewayBed, type Member } from '../bed.js';
import { EventQueue } from './event-queue.js';
import type { EventStream, RoomTransport } from './room-scenario.js';

/** A refused HTTP call, with the error body's stable code. */
class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(`${status} ${code}: ${message}`);
  }
}

export class HttpWsTransport implements RoomTransport {
  readonly name = 'HTTP + WebSocket';

  constructor(private readonly bed: GatewayBed) {}

  private async call<T>(as: Member, method: string, path: string, body?: unknown): Promise<T> {
    const answer = await this.bed.call<T & { code?: string; message?: string }>(method, path, body, as.token);
    if (answer.status >= 400) throw new HttpError(answer.status, answer.body.code ?? 'unknown', answer.body.message ?? '');
    return answer.body;
  }

  async createRoom(as: Member, name: string): Promise<string> {
    const { room } = await this.call<{ room: { id: string } }>(as, 'POST', '/api/rooms', { name, visibility: 'public' });
    return room.id;
  }

  async join(as: Member, roomId: string): Promise<void> {
    await this.call(as, 'POST', `/api/rooms/${roomId}/join`, {});
  }

  async watch(as: Member, roomId: string): Promise<EventStream> {
    const ticket = await requestTicket(this.bed.url, roomId, as.token);
    const client = await RealtimeClient.connect({ url: this.bed.url, roomId, ticket, origin: ALLOWED_ORIGIN });
    const queue = new EventQueue();
    client.onMessage((message) => {
      if (message.type === 'event') queue.push(message.seq, message.event);
    });
    void client.closed.then((info) => queue.end(info.reason));
    return { next: (what, match) => queue.next(what, match), ended: () => queue.ended(), close: async () => void (await client.close()) };
  }

  async push(as: Member, roomId: string, media: { title: string; url: string }): Promise<string> {
    const { item } = await this.call<{ item: { id: string } }>(as, 'POST', `/api/rooms/${roomId}/playlist`, media);
    return item.id;
  }

  async setCurrent(as: Member, roomId: string, mediaId: string): Promise<void> {
    await this.call(as, 'PUT', `/api/rooms/${roomId}/playlist/current`, { mediaId });
  }

  private async playback(as: Member, roomId: string, action: string, body: unknown = {}) {
    const { playback } = await this.call<{ playback: { playing: boolean; position: number; mediaId: string | null } }>(
      as,
      'POST',
      `/api/rooms/${roomId}/playback/${action}`,
      body,
    );
    return playback;
  }

  play(as: Member, roomId: string) {
    return this.playback(as, roomId, 'play');
  }

  seek(as: Member, roomId: string, position: number) {
    return this.playback(as, roomId, 'seek', { position });
  }

  pause(as: Member, roomId: string) {
    return this.playback(as, roomId, 'pause');
  }

  async chat(as: Member, roomId: string, text: string) {
    const { message } = await this.call<{ message: { id: string; text: string; userId: string } }>(as, 'POST', `/api/rooms/${roomId}/chat`, { text });
    return message;
  }

  async history(as: Member, roomId: string) {
    return (await this.call<{ messages: Array<{ id: string; text: string; userId: string }> }>(as, 'GET', `/api/rooms/${roomId}/chat`)).messages;
  }

  async kick(as: Member, roomId: string, userId: string): Promise<void> {
    await this.call(as, 'POST', `/api/rooms/${roomId}/members/${userId}/kick`, {});
  }
}
