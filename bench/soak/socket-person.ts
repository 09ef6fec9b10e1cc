/**
 * One person on a room socket, as the web client behaves: connects with its access token
 * through one of the gateways, reconnects with capped, jittered backoff when the socket closes
 * (the next attempt through the other gateway, as a load balancer would send it) and resumes
 * after the last seq it applied (R7). Unlike the web client it resends a command whose answer
 * was lost with the socket (same frame id, so the same command: the gateway derives the
 * envelope id from it) until the command's deadline, so that the soak can count what was
 * acknowledged and what ran twice. Every event's seq is checked against the last one seen.
 */
import WebSocket from 'ws';
import { CLOSE, connectProtocols, realtimePath } from '../../contracts/ws/protocol.js';
import type { RoomCommand } from '../../contracts/room/commands.js';
import { Ledger, retried, type CommandRecord } from './ledger.js';
import type { Random } from './random.js';

export interface Account {
  userId: string;
  username: string;
  token: string;
  /** The X-Forwarded-For this person's requests carry (rate limits are per address). */
  address: string;
}

export interface Gateway {
  name: string;
  url: string;
}

type Answer = { kind: 'ok' } | { kind: 'error'; code: string; retryAfterMs: number | undefined } | { kind: 'closed' } | { kind: 'timeout' };

/** Errors a client may send again after a moment: the room was moving or the host was busy. */
const RETRYABLE = new Set(['unavailable', 'busy', 'deadline_exceeded', 'rate_limited']);
export const COMMAND_DEADLINE_MS = 10_000;
const BACKOFF_BASE_MS = 250;
const BACKOFF_CAP_MS = 4_000;
const KEEPALIVE_MS = 10_000;
const CONNECT_TIMEOUT_MS = 15_000;

interface Open {
  ws: WebSocket;
  gateway: Gateway;
  pending: Map<string, (answer: Answer) => void>;
}

export class SocketPerson {
  /** The room it is in (or moving to). */
  roomId: string;
  /** True while a socket is open and its start (snapshot or resumed) is in. */
  get inRoom(): boolean {
    return this.open !== undefined && this.startedRoom === this.roomId;
  }

  private open: Open | undefined;
  /** The gateway of the latest socket (the home one before any). */
  private gateway: Gateway;
  private startedRoom: string | undefined;
  private readonly lastSeq = new Map<string, number>();
  private resume: { seq: number; missed: number } | undefined;
  private stopped = false;
  private nextFrame = 0;
  private openWaiters: Array<() => void> = [];
  private closedAt: number | undefined;
  private loop: Promise<void> | undefined;
  /** Set to leave the current socket and reconnect in `roomId` (a move). */
  private leaving = false;
  private moving: Promise<void> = Promise.resolve();
  /** The gateway tried first: the home one, until one closes with "service restart" (go elsewhere). */
  private preferred: number;
  private inFlight = 0;
  private idleWaiters: Array<() => void> = [];

  constructor(
    readonly index: number,
    readonly account: Account,
    roomId: string,
    private readonly gateways: readonly Gateway[],
    private readonly home: number,
    private readonly ledger: Ledger,
    private readonly random: Random,
  ) {
    this.roomId = roomId;
    this.gateway = gateways[home]!;
    this.preferred = home;
  }

  start(): void {
    this.loop ??= this.connectLoop();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.open?.ws.close(1000);
    this.wake();
    await this.loop;
  }

  /** Sends a room command as one logical action; resolves once it is settled (ok, error or deadline). */
  async command(command: RoomCommand, marker?: string): Promise<CommandRecord> {
    // A command belongs to the room it was meant for: none starts while the person is moving.
    await this.moving;
    this.inFlight += 1;
    try {
      return await this.send(command, marker);
    } finally {
      this.inFlight -= 1;
      if (this.inFlight === 0) for (const resolve of this.idleWaiters.splice(0)) resolve();
    }
  }

  /**
   * Leaves the socket's room and continues in `roomId` (the caller has joined it over HTTP),
   * once the commands in flight have settled: a resend after the switch would run in the other
   * room, a second command with the same text.
   */
  async moveTo(roomId: string): Promise<void> {
    let done!: () => void;
    this.moving = new Promise<void>((resolve) => (done = resolve));
    try {
      if (this.inFlight > 0) await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
      this.roomId = roomId;
      this.leaving = true;
      this.open?.ws.close(1000, 'moving');
    } finally {
      done();
    }
  }

  private async send(command: RoomCommand, marker?: string): Promise<CommandRecord> {
    const frameId = `c${this.index}-${(this.nextFrame += 1)}`;
    const deadline = Date.now() + COMMAND_DEADLINE_MS;
    // Timed from the person's action, so that waiting for a socket counts as the user felt it.
    const record = this.ledger.begin({ channel: 'ws', kind: command.kind, roomId: this.roomId, gateway: this.gateway.name, sentAt: Date.now(), ...(marker ? { marker } : {}) });
    for (let attempt = 0; Date.now() < deadline && !this.stopped; attempt++) {
      const open = await this.whenOpen(deadline);
      if (!open) break;
      if (attempt > 0) record.resends += 1;
      const answer = await this.request(open, frameId, command, deadline);
      if (answer.kind === 'ok') {
        Ledger.finish(record, true);
        return record;
      }
      if (answer.kind === 'error') {
        if (!RETRYABLE.has(answer.code)) {
          Ledger.finish(record, false, answer.code);
          return record;
        }
        retried(record, answer.code);
        await sleep(Math.min(retryDelay(attempt, answer.retryAfterMs, this.random), Math.max(0, deadline - Date.now())));
      } else {
        retried(record, answer.kind);
      }
      // closed: wait for the next socket and send it again.
    }
    Ledger.finish(record, false, 'timeout');
    return record;
  }

  private request(open: Open, frameId: string, command: RoomCommand, deadline: number): Promise<Answer> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => settle({ kind: 'timeout' }), Math.max(0, deadline - Date.now()));
      const settle = (answer: Answer): void => {
        clearTimeout(timer);
        open.pending.delete(frameId);
        resolve(answer);
      };
      open.pending.set(frameId, settle);
      try {
        open.ws.send(JSON.stringify({ type: 'command', id: frameId, command, sentAt: Date.now() }));
      } catch {
        settle({ kind: 'closed' });
      }
    });
  }

  private async whenOpen(deadline: number): Promise<Open | undefined> {
    while (!this.stopped && Date.now() < deadline) {
      if (this.open && this.startedRoom === this.roomId) return this.open;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.max(0, deadline - Date.now()));
        this.openWaiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return undefined;
  }

  private wake(): void {
    const waiters = this.openWaiters;
    this.openWaiters = [];
    for (const wake of waiters) wake();
  }

  private async connectLoop(): Promise<void> {
    let failures = 0;
    while (!this.stopped) {
      const gateway = this.gateways[(this.preferred + failures) % this.gateways.length]!;
      const closed = await this.connect(gateway);
      if (this.stopped) return;
      if (closed === 'started') {
        failures = 0;
        // Wait for that socket to close.
        await new Promise<void>((resolve) => this.open?.ws.once('close', () => resolve()) ?? resolve());
        if (this.leaving) {
          this.leaving = false;
          continue;
        }
      } else {
        failures += 1;
      }
      if (this.stopped) return;
      const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** Math.min(failures, 10));
      await sleep(ceiling / 2 + (this.random.next() * ceiling) / 2);
    }
  }

  /** One socket: resolves 'started' once the room's start is in, 'failed' when it never got there. */
  private connect(gateway: Gateway): Promise<'started' | 'failed'> {
    const roomId = this.roomId;
    const resumeAfter = this.lastSeq.get(roomId);
    const target = new URL(realtimePath(roomId), gateway.url);
    target.protocol = 'ws:';
    const ws = new WebSocket(target, connectProtocols(resumeAfter !== undefined ? { resumeAfter } : {}), {
      headers: { authorization: `Bearer ${this.account.token}`, 'x-forwarded-for': this.account.address },
      perMessageDeflate: false,
      handshakeTimeout: CONNECT_TIMEOUT_MS,
    });
    const open: Open = { ws, gateway, pending: new Map() };
    this.ledger.sockets.connects += 1;
    return new Promise((resolve) => {
      let started = false;
      let heard = Date.now();
      let pings = 0;
      const connectTimer = setTimeout(() => ws.terminate(), CONNECT_TIMEOUT_MS);
      const keepalive = setInterval(() => {
        if (Date.now() - heard < KEEPALIVE_MS) return;
        if ((pings += 1) > 2) ws.terminate();
        else if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ type: 'ping', t0: Date.now() }));
      }, KEEPALIVE_MS / 2);
      ws.on('error', () => undefined);
      ws.on('message', (data: Buffer) => {
        heard = Date.now();
        pings = 0;
        let message: Record<string, unknown>;
        try {
          message = JSON.parse(data.toString('utf8')) as Record<string, unknown>;
        } catch {
          return;
        }
        const onStart = (): void => {
          started = true;
          clearTimeout(connectTimer);
          if (this.closedAt !== undefined) this.ledger.sockets.reconnectMs.push(Date.now() - this.closedAt);
          this.closedAt = undefined;
          this.open = open;
          this.gateway = gateway;
          this.startedRoom = roomId;
          // Moved while this socket was opening: moveTo had no socket to close, so this one
          // must go, or the person would sit in the old room for good.
          if (roomId !== this.roomId) {
            this.leaving = true;
            ws.close(1000, 'moving');
          }
          this.wake();
          resolve('started');
        };
        switch (message.type) {
          case 'snapshot': {
            this.ledger.sockets.snapshots += 1;
            this.observe(roomId, Number(message.seq), false);
            onStart();
            break;
          }
          case 'resumed': {
            this.ledger.sockets.resumes += 1;
            this.resume = { seq: Number(message.seq), missed: Number(message.missed) };
            if (this.resume.missed === 0) this.finishResume(roomId);
            onStart();
            break;
          }
          case 'event':
            this.observe(roomId, Number(message.seq), true);
            if (this.resume && --this.resume.missed <= 0) this.finishResume(roomId);
            break;
          case 'ok':
            if (typeof message.id === 'string') open.pending.get(message.id)?.({ kind: 'ok' });
            break;
          case 'error': {
            const error = message.error as { code: string; retryAfterMs?: number };
            if (typeof message.id === 'string') open.pending.get(message.id)?.({ kind: 'error', code: error.code, retryAfterMs: error.retryAfterMs });
            break;
          }
          default:
            break;
        }
      });
      ws.on('close', (code: number) => {
        // 1012: this gateway is going away; a balancer would send the next attempt elsewhere.
        if (code === CLOSE.serviceRestart) this.preferred = (this.gateways.indexOf(gateway) + 1) % this.gateways.length;
        clearTimeout(connectTimer);
        clearInterval(keepalive);
        for (const settle of [...open.pending.values()]) settle({ kind: 'closed' });
        if (this.open === open) {
          this.open = undefined;
          this.startedRoom = undefined;
          this.resume = undefined;
          if (!this.leaving && !this.stopped) this.closedAt = Date.now();
        }
        if (!started) resolve('failed');
      });
    });
  }

  private finishResume(roomId: string): void {
    const resume = this.resume;
    this.resume = undefined;
    if (!resume) return;
    const last = this.lastSeq.get(roomId);
    if (last === undefined || resume.seq > last) this.lastSeq.set(roomId, resume.seq);
  }

  /** R5: seqs only grow on one client's view of a room, across sockets and resumes. */
  private observe(roomId: string, seq: number, isEvent: boolean): void {
    const last = this.lastSeq.get(roomId);
    if (last !== undefined && seq < last) {
      this.ledger.sockets.backwards.push({ client: this.index, roomId, seq, after: last, at: Date.now() });
      this.lastSeq.set(roomId, seq);
      return;
    }
    if (last !== undefined && seq === last && isEvent) {
      this.ledger.sockets.repeats += 1;
      return;
    }
    this.lastSeq.set(roomId, seq);
  }
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The wait before resending after a retryable refusal: what the server asked for, else 200 ms
 * doubling to 2 s, jittered, so that a crowd refused together does not come back together
 * (resending every 100 ms turned a NATS restart into a retry storm that lengthened it).
 */
export function retryDelay(attempt: number, retryAfterMs: number | undefined, random: Random): number {
  const ceiling = Math.min(2_000, 200 * 2 ** Math.min(attempt, 4));
  return Math.max(retryAfterMs ?? 0, ceiling / 2 + (random.next() * ceiling) / 2);
}
