import pg from 'pg';
import type { PostgresHost, PostgresUrl } from '../net/index.js';

/** How long one probe of one host may take before that host counts as unreachable. */
const PROBE_TIMEOUT_MS = 2_000;
/**
 * How long a connection waits for some host to suit before it fails. A failover (the primary
 * gone, its standby not yet promoted) lasts a second or two; waiting through it turns failed
 * commands into slower ones. Below the pool's connect bound (5 s), which would cut it anyway.
 */
const WAIT_FOR_HOST_MS = 3_500;
const PROBE_INTERVAL_MS = 200;

/**
 * No host suits (class 08, "unable to establish connection"), so callers classify it as the
 * database being unavailable (postgres/errors.ts), as libpq's own failure would be.
 */
export class NoSuitableHostError extends Error {
  readonly code = '08001';
}

/**
 * Which host of a multi-host `database.url` new connections go to (libpq's
 * `target_session_attrs`, which node-postgres lacks). The last host that suited is kept; when a
 * connection to it fails or it turns out to be a standby, every host is probed at once and the
 * first in the URL's order that suits is taken, probing again for a few seconds while none does
 * (a failover in progress). Probes are shared: a burst of new connections after a failover
 * waits on one round, not one each.
 */
export class HostSelector {
  private chosen: PostgresHost | undefined;
  private probing: Promise<PostgresHost> | undefined;
  /** One host and no condition: nothing to choose, and nothing to probe. */
  private readonly fixed: boolean;

  constructor(private readonly target: PostgresUrl) {
    this.fixed = target.hosts.length === 1 && target.targetSessionAttrs === 'any';
    if (this.fixed) this.chosen = target.hosts[0];
  }

  /** The URL's first host: for a client's configuration, before `host()` picks where it goes. */
  get firstHost(): PostgresHost {
    return this.target.hosts[0]!;
  }

  get mustWrite(): boolean {
    return this.target.targetSessionAttrs !== 'any';
  }

  /** A node-postgres configuration for one host (user, database and options from the URL). */
  configFor(host: PostgresHost): pg.ClientConfig {
    return { connectionString: this.target.urlFor(host) };
  }

  async host(): Promise<PostgresHost> {
    if (this.chosen) return this.chosen;
    this.probing ??= this.probe().finally(() => {
      this.probing = undefined;
    });
    return this.probing;
  }

  /** A connection to `host` failed or found it unsuitable: the next one probes again. */
  forget(host: PostgresHost): void {
    if (!this.fixed && this.chosen === host) this.chosen = undefined;
  }

  /**
   * Why `client`, just connected, is not a session this URL wants, or undefined when it is.
   * `read-write` asks what libpq asks (the session would refuse writes); `primary`, whether
   * the server is in recovery.
   */
  async unsuitable(client: pg.Client): Promise<string | undefined> {
    if (!this.mustWrite) return undefined;
    const { rows } = await client.query<{ recovery: boolean; read_only: string }>(
      "SELECT pg_is_in_recovery() AS recovery, current_setting('transaction_read_only') AS read_only",
    );
    const row = rows[0]!;
    if (row.recovery) return 'it is a standby (in recovery)';
    if (this.target.targetSessionAttrs === 'read-write' && row.read_only === 'on') return 'its sessions are read-only';
    return undefined;
  }

  private async probe(): Promise<PostgresHost> {
    const deadline = Date.now() + WAIT_FOR_HOST_MS;
    for (;;) {
      const results = await Promise.all(this.target.hosts.map((host) => this.check(host)));
      const index = results.findIndex((reason) => reason === undefined);
      if (index >= 0) {
        this.chosen = this.target.hosts[index]!;
        return this.chosen;
      }
      if (Date.now() + PROBE_INTERVAL_MS >= deadline) {
        const wanted = this.mustWrite ? `a ${this.target.targetSessionAttrs} server` : 'a server';
        const reasons = this.target.hosts.map((host, i) => `${host.host}:${host.port} ${results[i]!}`).join('; ');
        throw new NoSuitableHostError(`no PostgreSQL host of database.url is ${wanted}: ${reasons}`);
      }
      await new Promise((resolve) => setTimeout(resolve, PROBE_INTERVAL_MS));
    }
  }

  private async check(host: PostgresHost): Promise<string | undefined> {
    const client = new pg.Client({
      ...this.configFor(host),
      application_name: 'svc:host-probe',
      connectionTimeoutMillis: PROBE_TIMEOUT_MS,
      query_timeout: PROBE_TIMEOUT_MS,
    });
    client.on('error', () => undefined);
    try {
      await client.connect();
      return await this.unsuitable(client);
    } catch (err) {
      return `is unreachable (${err instanceof Error ? err.message : String(err)})`;
    } finally {
      await client.end().catch(() => undefined);
    }
  }
}

/**
 * A node-postgres client class whose connections go where `selector` says, and which refuses a
 * session of the wrong kind. Given to pg-pool as its `Client`, and used for the settings
 * listener, so both follow the primary through a failover. The options passed to each instance
 * (timeouts, application name) are the caller's; only the host and port are chosen here.
 */
export function selectingClient(selector: HostSelector): typeof pg.Client {
  class SelectingClient extends pg.Client {
    override connect(): Promise<pg.Client>;
    override connect(callback: ((err: Error) => void) | ((err: null, c: pg.Client) => void)): void;
    override connect(callback?: ((err: Error) => void) | ((err: null, c: pg.Client) => void)): Promise<pg.Client> | void {
      const connected = this.connectToSelected().then(() => this);
      if (!callback) return connected;
      const done = callback as (err: Error | null, c?: pg.Client) => void;
      connected.then(
        (client) => done(null, client),
        (err: Error) => done(err),
      );
    }

    private async connectToSelected(): Promise<void> {
      const host = await selector.host();
      // Read by pg.Client when it opens the socket; the rest of the configuration stays.
      const self = this as unknown as { host: string; port: number };
      self.host = host.host;
      self.port = host.port;
      try {
        await new Promise<void>((resolve, reject) => super.connect((err: Error | null) => (err ? reject(err) : resolve())));
      } catch (err) {
        selector.forget(host);
        throw err;
      }
      const reason = await selector.unsuitable(this).catch((err: Error) => `could not be asked (${err.message})`);
      if (reason !== undefined) {
        selector.forget(host);
        await this.end().catch(() => undefined);
        throw new NoSuitableHostError(`PostgreSQL at ${host.host}:${host.port} ${reason}; looking for another host`);
      }
      // A session the server ends (its postmaster gone, a failover) says the host may be gone:
      // new connections probe again rather than each fail once on it.
      this.on('error', () => selector.forget(host));
    }
  }
  return SelectingClient;
}
