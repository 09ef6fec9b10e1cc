/**
 * The web client's room connection (web/src/realtime/connection.ts) under Node: its
 * `ConnectionEnvironment` with the `ws` package instead of the browser's WebSocket. A native
 * client's socket sends no Origin; it carries the session's bearer (gateways/ws/handshake.ts)
 * beside the single-use ticket the connection asks for on every attempt.
 */
import WebSocket from 'ws';
import { ticketPath } from '../../contracts/ws/constants.js';
import type { ConnectionEnvironment, RoomSocket } from '../../web/index.js';
import type { RoomApi } from './room-api.js';

export function nodeEnvironment(api: RoomApi): ConnectionEnvironment {
  return {
    ticket: async (roomId) => (await api.post<{ ticket: string }>(ticketPath(roomId))).ticket,
    openSocket: (path, protocols): RoomSocket => {
      const url = new URL(path, api.origin);
      url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
      const socket = new WebSocket(url, protocols, { headers: api.session ? { authorization: `Bearer ${api.session.accessToken}` } : {} });
      const room: RoomSocket = {
        get readyState() {
          return socket.readyState;
        },
        onmessage: null,
        onclose: null,
        send: (data) => socket.send(data),
        close: (code, reason) => socket.close(code, reason),
      };
      socket.on('message', (data, isBinary) => room.onmessage?.({ data: isBinary ? data : (data as Buffer).toString('utf8') }));
      socket.on('close', (code, reason) => room.onclose?.({ code, reason: reason.toString('utf8') }));
      // A refused upgrade or a dead network: 'close' (1006) follows, and the connection decides.
      socket.on('error', () => undefined);
      return room;
    },
    setTimer: (callback, ms) => setTimeout(callback, ms),
    clearTimer: (timer) => clearTimeout(timer as ReturnType<typeof setTimeout>),
    now: () => Date.now(),
    random: () => Math.random(),
    // Node cannot tell that the machine is offline: a failed attempt is retried with backoff.
    online: () => true,
    watch: () => () => undefined,
  };
}
