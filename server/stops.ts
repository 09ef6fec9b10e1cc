/**
 * The shutdown of one replica. Each part registers its stop as it starts; they run newest first,
 * so a part stops before what it stands on (sockets before the HTTP server, the actor host's
 * drain before the connections close), and a failing stop does not keep the others from running.
 */
import type { Logger } from '../observability/index.js';

export type Stop = () => Promise<void>;

export class Stops {
  private readonly stops: Stop[] = [];

  constructor(private readonly logger: Logger) {}

  push(...stops: Stop[]): void {
    this.stops.push(...stops);
  }

  /** Runs every registered stop, the last registered first; errors are logged, not thrown. */
  async stopAll(): Promise<void> {
    for (const stop of this.stops.reverse()) await stop().catch((err: unknown) => this.logger.error({ err }, 'error while stopping'));
  }
}
