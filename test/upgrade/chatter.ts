/**
 * One member's socket during the upgrade: it chats and seeks without pause, and when its
 * gateway drains (close 1012) or a command's answer is lost with the socket, it connects to a
 * gateway still up (a native client, with its bearer token), resumes after the last seq it
 * applied (R7) and sends the same command id again (the room answers a retry with the first
 * reply, never applying it twice).
 * It records what a user would notice: a command not answered ok, a seq going backwards.
 */
import { uniqueIp } from '../fixtures/client-address.js';
import { RealtimeClient, RealtimeCommandError } from '../harness/ws-client.js';

export interface ChatterOptions {
  name: string;
  token: string;
  roomId: string;
  /** Base URLs of the gateways taking new sockets now (the test updates it as it rolls). */
  gateways: () => string[];
  /** How long one command may take, retries included, before it counts as not answered. */
  commandBudgetMs?: number;
}

export class Chatter {
  /** Texts of chat messages the room acknowledged. */
  readonly acked: string[] = [];
  /** Commands that were not answered ok (code and message), which users would notice. */
  readonly failures: string[] = [];
  /** Each time an event's seq was not above the last one this member applied. */
  readonly seqBackwards: Array<{ last: number; got: number }> = [];
  reconnects = 0;
  /** Gateways this member's socket was served by, in order. */
  readonly servedBy: string[] = [];
  private client: RealtimeClient | undefined;
  private lastSeq = 0;
  private running = false;
  private loop: Promise<void> | undefined;
  private sent = 0;
  /** One client address per member, as behind a proxy: connection limits are per address too. */
  private readonly address = uniqueIp();

  constructor(private readonly options: ChatterOptions) {}

  get commands(): number {
    return this.sent;
  }

  async connect(): Promise<void> {
    const deadline = Date.now() + 20_000;
    let last: unknown;
    while (Date.now() < deadline) {
      const urls = this.options.gateways();
      const url = urls[Math.floor(Math.random() * urls.length)];
      if (url) {
        try {
          // A native client: its bearer token on the upgrade, no ticket.
          const client = await RealtimeClient.connect({
            url,
            roomId: this.options.roomId,
            token: this.options.token,
            headers: { 'x-forwarded-for': this.address },
            ...(this.lastSeq > 0 ? { resumeAfter: this.lastSeq } : {}),
          });
          // The missed events of a resume arrive before connect resolves; later ones through the listener.
          if (client.start.type === 'snapshot') this.applied(client.start.seq, true);
          for (const event of client.events) this.applied(event.seq);
          client.events.length = 0;
          client.onMessage((message) => {
            if (message.type === 'event') this.applied(message.seq);
            client.events.length = 0;
          });
          // A resume may skip events this member may not see: its seq is where the room is.
          this.lastSeq = Math.max(this.lastSeq, client.start.seq);
          this.client = client;
          this.servedBy.push(url);
          return;
        } catch (err) {
          last = err;
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`${this.options.name} could not get back into room ${this.options.roomId}`, { cause: last });
  }

  start(): void {
    this.running = true;
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.loop;
    await this.client?.close().catch(() => undefined);
  }

  private applied(seq: number, snapshot = false): void {
    // A snapshot may repeat the last seq (nothing happened meanwhile); an event must be above it.
    if (snapshot ? seq < this.lastSeq : seq <= this.lastSeq) this.seqBackwards.push({ last: this.lastSeq, got: seq });
    this.lastSeq = Math.max(this.lastSeq, seq);
  }

  private async run(): Promise<void> {
    while (this.running) {
      this.sent += 1;
      const n = this.sent;
      const text = `${this.options.name} #${n}`;
      const id = `${this.options.name}-${n}`;
      try {
        if (n % 4 === 0) await this.send(id, { kind: 'playback.seek', position: (n * 1000) % 60_000 });
        else {
          await this.send(id, { kind: 'chat.send', text });
          this.acked.push(text);
        }
      } catch (err) {
        this.failures.push(`${id}: ${err instanceof Error ? err.message : String(err)}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** Sends until answered: a lost socket is replaced and the same id sent again; an error answer is final. */
  private async send(id: string, command: { kind: 'chat.send'; text: string } | { kind: 'playback.seek'; position: number }): Promise<void> {
    const deadline = Date.now() + (this.options.commandBudgetMs ?? 20_000);
    for (;;) {
      const client = this.client;
      try {
        if (!client) throw new Error('no socket');
        await client.command(command, { id, timeoutMs: 5_000 });
        return;
      } catch (err) {
        if (err instanceof RealtimeCommandError) throw err;
        if (Date.now() > deadline) throw err;
        if (this.client === client) {
          this.client = undefined;
          await client?.close().catch(() => undefined);
          this.reconnects += 1;
          await this.connect();
        }
      }
    }
  }
}
