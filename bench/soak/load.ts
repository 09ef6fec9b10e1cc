/**
 * The traffic of a soak, bounded and open-loop (each person acts on its own timer, whatever
 * the answers): per person on its socket a chat message every ~10 s (each text unique, so it
 * can be found in PostgreSQL), a play/pause/seek every ~30 s, and for people who own no room a
 * move to another room every ~3 min (join the new one over HTTP, switch the socket, leave the old
 * one); plus HTTP callers (~3 requests/s in all: room reads and playlist adds with an
 * Idempotency-Key) and gRPC callers (~2 calls/s: GetRoom and playlist Push with a command id),
 * each resent with the same key until its deadline when the answer is lost. With 300 people
 * that is about 30 chats/s, 10 playback commands/s and 5 API calls/s.
 */
import { connectGrpc, GrpcCallError, type SvcGrpc } from '../../gateways/grpc/client.js';
import type { RoomCommand } from '../../contracts/room/commands.js';
import { call } from './http.js';
import { Ledger, retried, type CommandRecord } from './ledger.js';
import type { Random } from './random.js';
import type { SoakWorld } from './setup.js';
import { COMMAND_DEADLINE_MS, retryDelay, SocketPerson, type Account, type Gateway } from './socket-person.js';

export const RATES = { chatEveryS: 10, playbackEveryS: 30, moveEveryS: 180, httpPerS: 3, grpcPerS: 2 } as const;

const RETRYABLE_HTTP = new Set([0, 408, 429, 500, 502, 503, 504]);
const RETRYABLE_GRPC = new Set(['unavailable', 'busy', 'deadline_exceeded', 'rate_limited', 'internal']);

export class Load {
  readonly people: SocketPerson[];
  readonly inFlight = new Set<Promise<unknown>>();
  private running = false;
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly grpc: SvcGrpc[];
  private counter = 0;

  constructor(
    private readonly world: SoakWorld,
    private readonly gateways: readonly (Gateway & { grpcAddress: string })[],
    private readonly ledger: Ledger,
    private readonly random: Random,
  ) {
    this.people = world.people.map(
      (account, i) => new SocketPerson(i, account, world.rooms[i % world.rooms.length]!, gateways, i % gateways.length, ledger, random.fork(`person${i}`)),
    );
    this.grpc = gateways.map((gateway) => connectGrpc(gateway.grpcAddress));
  }

  /** Opens every socket (a few at a time) and waits until all are in their rooms. */
  async connect(timeoutMs = 120_000): Promise<void> {
    for (const person of this.people) {
      person.start();
      await sleep(5);
    }
    const deadline = Date.now() + timeoutMs;
    while (this.people.some((person) => !person.inRoom)) {
      if (Date.now() > deadline) throw new Error(`${this.people.filter((p) => !p.inRoom).length} sockets not in their rooms within ${timeoutMs} ms`);
      await sleep(200);
    }
  }

  start(): void {
    this.running = true;
    for (const person of this.people) {
      this.every(RATES.chatEveryS * 1000, () => this.chat(person));
      this.every(RATES.playbackEveryS * 1000, () => this.steer(person));
      if (person.index >= this.world.rooms.length && this.world.rooms.length > 1) this.every(RATES.moveEveryS * 1000, () => this.move(person));
    }
    this.every(1000 / RATES.httpPerS, () => this.httpCall(), true);
    this.every(1000 / RATES.grpcPerS, () => this.grpcCall(), true);
  }

  /** No new actions; resolves when every action in flight has settled (each has a deadline). */
  async stop(): Promise<void> {
    this.running = false;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  async close(): Promise<void> {
    await Promise.all(this.people.map((person) => person.stop()));
    for (const client of this.grpc) client.close();
  }

  /** Exponential gaps with the given mean (a Poisson process per person), or a fixed pace. */
  private every(meanMs: number, action: () => Promise<unknown>, fixed = false): void {
    const schedule = (): void => {
      if (!this.running) return;
      const gap = fixed ? meanMs : -Math.log(1 - this.random.next()) * meanMs;
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        if (!this.running) return;
        const work = action().catch((err: unknown) => console.error(`soak: load action failed: ${String(err)}`));
        this.inFlight.add(work);
        void work.finally(() => this.inFlight.delete(work));
        schedule();
      }, gap);
      this.timers.add(timer);
    };
    schedule();
  }

  private marker(kind: string): string {
    return `soak-${this.world.runId}-${kind}-${(this.counter += 1)}`;
  }

  private chat(person: SocketPerson): Promise<CommandRecord> {
    const text = this.marker('chat');
    return person.command({ kind: 'chat.send', text, clientMessageId: text }, text);
  }

  private steer(person: SocketPerson): Promise<CommandRecord> {
    const position = this.random.int(0, 3_000);
    const commands: RoomCommand[] = [{ kind: 'playback.play' }, { kind: 'playback.pause', position }, { kind: 'playback.seek', position }];
    return person.command(this.random.pick(commands));
  }

  private async move(person: SocketPerson): Promise<void> {
    const from = person.roomId;
    const to = this.random.pick(this.world.rooms.filter((roomId) => roomId !== from));
    const joined = await this.http(person.account, 'member.join', to, 'POST', `/api/rooms/${to}/join`, {});
    if (!joined.ok) return;
    await person.moveTo(to);
    await this.http(person.account, 'member.leave', from, 'POST', `/api/rooms/${from}/leave`, {});
  }

  private randomPerson(): SocketPerson {
    return this.random.pick(this.people);
  }

  private async httpCall(): Promise<void> {
    const person = this.randomPerson();
    const roomId = person.roomId;
    if (this.random.next() < 0.5) {
      await this.http(person.account, 'room.get', roomId, 'GET', `/api/rooms/${roomId}`);
      return;
    }
    const title = this.marker('http');
    await this.http(person.account, 'playlist.push', roomId, 'POST', `/api/rooms/${roomId}/playlist`, { title, url: 'https://media.example.com/extra.mp4' }, title);
  }

  /** One HTTP request as a logical command: resent with the same Idempotency-Key until its deadline. */
  private async http(account: Account, kind: string, roomId: string, method: string, path: string, body?: unknown, marker?: string): Promise<CommandRecord> {
    const key = `soak-${this.world.runId}-${(this.counter += 1)}`;
    let gatewayIndex = this.random.int(0, this.gateways.length - 1);
    const record = this.ledger.begin({ channel: 'http', kind, roomId, gateway: this.gateways[gatewayIndex]!.name, sentAt: Date.now(), ...(marker ? { marker } : {}) });
    const deadline = record.sentAt + COMMAND_DEADLINE_MS;
    for (let attempt = 0; Date.now() < deadline; attempt++) {
      if (attempt > 0) record.resends += 1;
      let status = 0;
      let code: string | undefined;
      try {
        const answer = await call(this.gateways[gatewayIndex]!.url, method, path, {
          token: account.token,
          address: account.address,
          ...(body !== undefined ? { body } : {}),
          headers: method === 'GET' ? {} : { 'idempotency-key': key },
          timeoutMs: Math.max(1, deadline - Date.now()),
        });
        status = answer.status;
        code = typeof answer.body.code === 'string' ? answer.body.code : undefined;
      } catch {
        status = 0;
      }
      if (status >= 200 && status < 300) {
        Ledger.finish(record, true);
        return record;
      }
      if (!RETRYABLE_HTTP.has(status)) {
        Ledger.finish(record, false, code ?? `http_${status}`);
        return record;
      }
      retried(record, code ?? `http_${status}`);
      // A gateway that does not answer: the next try goes to the other one, as a balancer would.
      if (status === 0) gatewayIndex = (gatewayIndex + 1) % this.gateways.length;
      await sleep(Math.min(retryDelay(attempt, undefined, this.random), Math.max(0, deadline - Date.now())));
    }
    Ledger.finish(record, false, 'timeout');
    return record;
  }

  private async grpcCall(): Promise<void> {
    const person = this.randomPerson();
    const roomId = person.roomId;
    const read = this.random.next() < 0.5;
    const title = read ? undefined : this.marker('grpc');
    const commandId = `soak-${this.world.runId}-${(this.counter += 1)}`;
    let gatewayIndex = this.random.int(0, this.gateways.length - 1);
    const record = this.ledger.begin({ channel: 'grpc', kind: read ? 'room.get' : 'playlist.push', roomId, gateway: this.gateways[gatewayIndex]!.name, sentAt: Date.now(), ...(title ? { marker: title } : {}) });
    const deadline = record.sentAt + COMMAND_DEADLINE_MS;
    for (let attempt = 0; Date.now() < deadline; attempt++) {
      if (attempt > 0) record.resends += 1;
      const client = this.grpc[gatewayIndex]!.as({ token: person.account.token, forwardedFor: person.account.address, deadlineMs: Math.max(1, deadline - Date.now()) });
      try {
        if (read) await client.rooms.GetRoom({ roomId });
        else await client.playlist.Push({ roomId, title: title!, url: 'https://media.example.com/extra.mp4' }, { commandId });
        Ledger.finish(record, true);
        return;
      } catch (err) {
        const code = err instanceof GrpcCallError ? err.code : 'unavailable';
        if (!RETRYABLE_GRPC.has(code)) {
          Ledger.finish(record, false, code);
          return;
        }
        retried(record, code);
        if (code === 'unavailable') gatewayIndex = (gatewayIndex + 1) % this.gateways.length;
      }
      await sleep(Math.min(retryDelay(attempt, undefined, this.random), Math.max(0, deadline - Date.now())));
    }
    Ledger.finish(record, false, 'timeout');
  }
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
