import type pg from 'pg';
import { parsePostgresUrl } from '../net/index.js';
import type { Logger } from '../observability/index.js';
import { HostSelector, selectingClient } from '../postgres/index.js';

export interface NotifyListenerOptions {
  /** `database.url`: with several hosts, the listener follows the primary (NOTIFY is not replicated). */
  connectionString: string;
  channel: string;
  /** Shown in `pg_stat_activity`, so the listener's backend can be found. */
  applicationName: string;
  logger: Logger;
  onNotification(payload: string | undefined): void;
  /**
   * Runs after every successful LISTEN, first connection included. A rejection counts as a
   * failed connection attempt, so it is retried like one.
   */
  onListening(event: { reconnect: boolean }): Promise<void>;
  /** Delay before the first reconnect attempt, doubled after each failure up to `maxMs`. */
  backoff?: { initialMs: number; maxMs: number };
  /**
   * Interval of a `SELECT 1` on the listening connection. A connection that died without a
   * FIN (server host gone, network partition) would otherwise look healthy, and deliver
   * nothing, until TCP gives up many minutes later.
   */
  heartbeatMs?: number;
}

const DEFAULT_BACKOFF = { initialMs: 100, maxMs: 5_000 };
const DEFAULT_HEARTBEAT_MS = 15_000;
const CONNECT_TIMEOUT_MS = 5_000;
const QUERY_TIMEOUT_MS = 5_000;
const KEEPALIVE_DELAY_MS = 10_000;

interface Session {
  client: pg.Client;
  closed: boolean;
  heartbeat?: NodeJS.Timeout;
}

/**
 * One dedicated connection that LISTENs on a channel and comes back after it is lost.
 *
 * Notifications sent while no connection is listening are gone for good, so after every
 * (re)connect `onListening` runs once LISTEN is in place: the owner reloads its whole state
 * there, and anything missed during the gap is picked up. LISTEN must come first; a reload
 * before it would leave a window in which a change is neither loaded nor notified.
 */
export class NotifyListener {
  private readonly options: NotifyListenerOptions;
  private readonly backoff: { initialMs: number; maxMs: number };
  private readonly Client: typeof pg.Client;
  private readonly selector: HostSelector;
  private session: Session | undefined;
  private stopped = false;
  private everListened = false;
  private reconnecting: Promise<void> | undefined;
  private wake: (() => void) | undefined;

  constructor(options: NotifyListenerOptions) {
    this.options = options;
    this.backoff = options.backoff ?? DEFAULT_BACKOFF;
    this.selector = new HostSelector(parsePostgresUrl(options.connectionString));
    this.Client = selectingClient(this.selector);
  }

  /** Connects and listens once; rejects if that fails, so a replica does not start blind. */
  async start(): Promise<void> {
    await this.openSession();
  }

  /** Closes the connection; no reconnect happens afterwards. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    await this.reconnecting;
    const session = this.session;
    this.session = undefined;
    if (session) await this.close(session);
  }

  /**
   * Drops the live connection as if it had been lost: reconnects with backoff and runs
   * `onListening` again. For an owner that knows its state is behind.
   */
  restart(reason: Error): void {
    if (this.session) this.lost(this.session, reason);
  }

  private async openSession(): Promise<void> {
    const client = new this.Client({
      ...this.selector.configFor(this.selector.firstHost),
      application_name: this.options.applicationName,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      query_timeout: QUERY_TIMEOUT_MS,
      keepAlive: true,
      keepAliveInitialDelayMillis: KEEPALIVE_DELAY_MS,
    });
    const session: Session = { client, closed: false };
    client.on('error', (err) => this.lost(session, err));
    client.on('end', () => this.lost(session));
    client.on('notification', (message) => {
      if (message.channel === this.options.channel) this.options.onNotification(message.payload);
    });

    try {
      await client.connect();
      await client.query(`LISTEN ${client.escapeIdentifier(this.options.channel)}`);
      await this.options.onListening({ reconnect: this.everListened });
    } catch (err) {
      await this.close(session);
      throw err;
    }
    if (session.closed) throw new Error('the listening connection closed while reloading');
    if (this.stopped) {
      await this.close(session);
      return;
    }
    this.everListened = true;
    this.session = session;
    session.heartbeat = setInterval(() => this.beat(session), this.options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS);
  }

  private beat(session: Session): void {
    session.client.query('SELECT 1').catch((err: Error) => this.lost(session, err));
  }

  /** The session's connection failed or ended; reconnect if it was the live one. */
  private lost(session: Session, err?: Error): void {
    if (session.closed) return;
    session.closed = true;
    clearInterval(session.heartbeat);
    void session.client.end().catch(() => undefined);
    if (this.session !== session || this.stopped) return;
    this.session = undefined;
    this.options.logger.warn(
      { channel: this.options.channel, err: err?.message ?? 'connection ended' },
      'settings listener lost its PostgreSQL connection; reconnecting',
    );
    this.reconnecting = this.reconnect();
  }

  private async reconnect(): Promise<void> {
    for (let attempt = 0; !this.stopped; attempt += 1) {
      const delayMs = Math.min(this.backoff.initialMs * 2 ** attempt, this.backoff.maxMs);
      await this.sleep(delayMs);
      if (this.stopped) return;
      try {
        await this.openSession();
        if (!this.stopped) {
          this.options.logger.info({ channel: this.options.channel, attempts: attempt + 1 }, 'settings listener reconnected');
        }
        return;
      } catch (err) {
        if (this.stopped) return;
        const message = err instanceof Error ? err.message : String(err);
        this.options.logger.warn(
          { channel: this.options.channel, attempt: attempt + 1, err: message },
          'settings listener reconnect failed; retrying',
        );
      }
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  private async close(session: Session): Promise<void> {
    if (!session.closed) {
      session.closed = true;
      clearInterval(session.heartbeat);
      await session.client.end().catch(() => undefined);
    }
  }
}
