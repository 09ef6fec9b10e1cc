/**
 * mpv's JSON IPC (`--input-ipc-server=<socket>`): one JSON object a line over a Unix socket.
 * Commands carry a `request_id` and are answered in kind; events (`property-change` of observed
 * properties, `seek`, `playback-restart`, `file-loaded`, `end-file`, ...) come unasked. Every
 * argument travels as a JSON value, never through mpv's command-line or input.conf parser, and
 * property expansion is off for this API (mpv's manual, "JSON IPC"): a URL, a title or a chat
 * message that starts with `--` or holds `${...}` stays text.
 */
import { connect, type Socket } from 'node:net';
import { AppError } from '../../errors/index.js';

/** An event mpv sent; property changes have `name` and `data`. */
export interface MpvEvent {
  event: string;
  name?: string;
  data?: unknown;
  id?: number;
  reason?: string;
  playlist_entry_id?: number;
}

interface Waiting {
  resolve(data: unknown): void;
  reject(error: Error): void;
}

/** How long a connect to a socket mpv has just been told to create is retried. */
const CONNECT_WAIT_MS = 10_000;
const RETRY_MS = 50;

export class MpvIpc {
  private buffer = '';
  private nextRequest = 1;
  private nextObserver = 1;
  private readonly waiting = new Map<number, Waiting>();
  private readonly observers = new Map<number, (value: unknown) => void>();
  private readonly listeners = new Set<(event: MpvEvent) => void>();
  private readonly closeListeners = new Set<() => void>();
  private closed = false;

  private constructor(private readonly socket: Socket) {
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => this.receive(chunk));
    socket.on('error', () => undefined); // 'close' follows
    socket.on('close', () => {
      this.closed = true;
      for (const waiting of this.waiting.values()) waiting.reject(new AppError('unavailable', 'mpv closed its IPC socket'));
      this.waiting.clear();
      for (const listener of this.closeListeners) listener();
    });
  }

  /** Connects to `path`, retrying while it does not exist yet (a just-started mpv), up to `waitMs`. */
  static async connect(path: string, waitMs = CONNECT_WAIT_MS): Promise<MpvIpc> {
    const deadline = Date.now() + waitMs;
    for (;;) {
      try {
        const socket = await new Promise<Socket>((resolve, reject) => {
          const socket = connect(path);
          socket.once('connect', () => resolve(socket));
          socket.once('error', reject);
        });
        return new MpvIpc(socket);
      } catch (err) {
        if (Date.now() >= deadline) {
          const why = err instanceof Error ? err.message : String(err);
          throw new AppError('unavailable', `could not reach mpv's IPC socket ${path} (${why}): start mpv with --input-ipc-server=${path}`);
        }
        await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
      }
    }
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Runs one command; resolves with its `data`, rejects with mpv's error string. */
  command(args: unknown[]): Promise<unknown> {
    if (this.closed) return Promise.reject(new AppError('unavailable', 'mpv is gone'));
    const requestId = this.nextRequest++;
    return new Promise((resolve, reject) => {
      this.waiting.set(requestId, { resolve, reject });
      this.socket.write(`${JSON.stringify({ command: args, request_id: requestId })}\n`);
    });
  }

  /** A command whose failure is only logged by the caller's absence of interest (a property that may not exist yet). */
  fire(args: unknown[]): void {
    this.command(args).catch(() => undefined);
  }

  /** Calls back with every value of `name` (its current one first); returns how to stop. */
  observe(name: string, callback: (value: unknown) => void): () => void {
    const id = this.nextObserver++;
    this.observers.set(id, callback);
    this.fire(['observe_property', id, name]);
    return () => {
      this.observers.delete(id);
      if (!this.closed) this.fire(['unobserve_property', id]);
    };
  }

  onEvent(listener: (event: MpvEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  onClose(listener: () => void): () => void {
    this.closeListeners.add(listener);
    return () => this.closeListeners.delete(listener);
  }

  close(): void {
    this.socket.destroy();
  }

  private receive(chunk: string): void {
    this.buffer += chunk;
    for (let end = this.buffer.indexOf('\n'); end >= 0; end = this.buffer.indexOf('\n')) {
      const line = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 1);
      if (line.trim() === '') continue;
      let message: Record<string, unknown>;
      try {
        message = JSON.parse(line) as Record<string, unknown>;
      } catch {
        continue; // not ours to judge: mpv writes JSON
      }
      this.dispatch(message);
    }
  }

  private dispatch(message: Record<string, unknown>): void {
    if (typeof message.event === 'string') {
      const event = message as unknown as MpvEvent;
      if (event.event === 'property-change' && typeof event.id === 'number') this.observers.get(event.id)?.(event.data);
      for (const listener of this.listeners) listener(event);
      return;
    }
    if (typeof message.request_id !== 'number') return;
    const waiting = this.waiting.get(message.request_id);
    if (!waiting) return; // another client's request_id (several clients share the socket's events, not replies)
    this.waiting.delete(message.request_id);
    if (message.error === 'success') waiting.resolve(message.data);
    else waiting.reject(new AppError('failed_precondition', `mpv: ${String(message.error)}`));
  }
}
