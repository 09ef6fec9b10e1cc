/**
 * Moves a process off a NATS server that is cut off from most of its cluster.
 *
 * nats.js changes server only when its connection drops. A node partitioned from the other two
 * keeps its clients connected, and for as long as the partition lasts it can do nothing for
 * them: its JetStream has no quorum, and core NATS requests reach no one on the other side. Its
 * gateways reach no room, its actor hosts cannot renew their lease. The server tells its
 * clients at once which servers it still routes to (the `connect_urls` of its INFO, measured:
 * within 2 ms of the routes closing it lists itself alone). When that is no majority of the
 * cluster for a moment, the process reconnects, and nats.js dials the next server of its list.
 *
 * A move is a disconnect: an actor host ends its incarnation, as it would at any drop
 * (actors/runtime/liveness.ts). That costs it nothing here: cut off, it could not renew its
 * lease and would stop within the lease TTL anyway; on the majority side it is live again at
 * its next heartbeat. A lost node or a rolling restart leaves two of three: nobody moves.
 */
import { Events, type NatsConnection } from 'nats';
import type { Logger } from '../observability/index.js';

/** How long the server must stay cut off before the move: routes that flap reconnect within it. */
const CUT_OFF_GRACE_MS = 750;
/** At most one move per this long: during a whole cluster's restart every node starts alone. */
const MOVE_BACKOFF_MS = 5_000;
/** Dials of one move that may land back on the server it left. */
const MAX_DIALS_PER_MOVE = 3;


/**
 * Follows the connection's server until `stop()`. The cluster's size is the most URLs a server
 * of this connection ever reported, not the servers configured: a single URL in front of a
 * cluster (a Kubernetes Service) names one server and reaches three, and a cluster with
 * `no_advertise` reports each server alone, always (that reads as a cluster of one, never cut
 * off). Under three there is no minority to leave. A server with several addresses lists each;
 * the nodes of a cluster are alike, so the share is still the nodes'.
 */
export function leaveMinoritySide(nc: NatsConnection, options: { logger: Logger }): { stop(): void } {
  let clusterSize = 0;
  let timer: NodeJS.Timeout | undefined;
  let lastMove = -Infinity;
  let stopped = false;
  /** The server a move left, until the connection is elsewhere; and the dials it took so far. */
  let leaving: { server: string | undefined; dials: number } | undefined;

  const reach = (): number | undefined => nc.info?.connect_urls?.length;
  const cutOff = (): boolean => {
    const seen = reach();
    if (!seen) return false;
    clusterSize = Math.max(clusterSize, seen);
    return clusterSize >= 3 && seen * 2 <= clusterSize;
  };
  const check = (): void => {
    if (stopped) return;
    if (!cutOff()) {
      clearTimeout(timer);
      timer = undefined;
      return;
    }
    timer ??= setTimeout(() => {
      timer = undefined;
      if (stopped || !cutOff()) return;
      const wait = lastMove + MOVE_BACKOFF_MS - performance.now();
      if (wait > 0) {
        timer = setTimeout(check, wait);
        return;
      }
      lastMove = performance.now();
      leaving = { server: nc.info?.server_name, dials: 1 };
      options.logger.warn(
        { server: leaving.server, reaches: reach(), clusterSize },
        'this NATS server reaches no majority of its cluster; reconnecting to another',
      );
      void nc.reconnect();
    }, CUT_OFF_GRACE_MS);
  };
  /**
   * nats.js's first reconnect dials the server it was connected to first (its first dial does
   * not rotate the list), so a move can land where it started: dial the next at once.
   */
  const landed = (): void => {
    if (leaving && nc.info?.server_name === leaving.server && leaving.dials < MAX_DIALS_PER_MOVE && cutOff()) {
      leaving.dials += 1;
      void nc.reconnect();
      return;
    }
    leaving = undefined;
    check();
  };

  void (async () => {
    for await (const status of nc.status()) {
      if (status.type === Events.Reconnect) landed();
      else if (status.type === Events.Update) check();
    }
  })().catch((err: unknown) => options.logger.warn({ err: String(err) }, 'stopped following the NATS server for a partition'));
  check();
  return {
    stop: () => {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
