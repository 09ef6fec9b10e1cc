/**
 * The browser under a room connection (connection.ts): the ticket request through the API
 * client, WebSocket beside the page's address, timers, and the window's online and offline
 * events and the page coming back (page-back.ts: shown, unfrozen, or restored from the
 * back/forward cache, whose sockets were closed when the page went in).
 */
import { api, call } from '../api/client.js';
import type { ConnectionEnvironment, RoomSocket } from './connection.js';
import { onPageBack } from './page-back.js';

export function browserEnvironment(): ConnectionEnvironment {
  return {
    ticket: async (roomId) => (await call(api.POST('/api/rooms/{roomId}/realtime/ticket', { params: { path: { roomId } } }))).ticket,
    openSocket: (path, protocols): RoomSocket => {
      const url = new URL(path, location.href);
      url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
      const socket = new WebSocket(url, protocols);
      const room: RoomSocket = {
        get readyState() {
          return socket.readyState;
        },
        onmessage: null,
        onclose: null,
        send: (data) => socket.send(data),
        close: (code, reason) => socket.close(code, reason),
      };
      socket.onmessage = (event) => room.onmessage?.(event);
      socket.onclose = (event) => room.onclose?.(event);
      return room;
    },
    setTimer: (callback, ms) => setTimeout(callback, ms),
    clearTimer: (timer) => clearTimeout(timer as ReturnType<typeof setTimeout>),
    now: () => Date.now(),
    random: () => Math.random(),
    online: () => navigator.onLine,
    watch: (listener) => {
      const online = (): void => listener('online');
      const offline = (): void => listener('offline');
      const stopBack = onPageBack(() => listener('visible'));
      window.addEventListener('online', online);
      window.addEventListener('offline', offline);
      return () => {
        window.removeEventListener('online', online);
        window.removeEventListener('offline', offline);
        stopBack();
      };
    },
  };
}
