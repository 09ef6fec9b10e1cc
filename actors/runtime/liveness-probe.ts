/**
 * Crash detection through the owner's NATS connection, so that a killed host's actors move in
 * milliseconds instead of waiting out its lease.
 *
 * Every incarnation of a host answers requests on `<prefix>._liveness.<incarnation>`, on the
 * same connection as its activations' command subscriptions, subscribed before its liveness key
 * is written. A host ends an incarnation (cutting off every activation, liveness.ts) the moment
 * that connection drops, before nats.js can reconnect and resubscribe anything. So when the NATS
 * server answers a probe with "no responders", the owner's connection is gone from the server:
 * nothing can be delivered to that incarnation any more, whatever its own clock says, and its
 * actors can be taken over at once. Their durable writes in flight are refused by the fence.
 *
 * "No responders" is evidence only from a server that sees the owner's interest:
 * - the owner's connection is on the same server as ours (`server_name`; stable across a
 *   restart of that server when configured, and names are unique in a cluster), or
 * - another live host on the owner's server answers its own probe at the same time, so the
 *   route to that server carries interest right now.
 * Otherwise (a cluster route partitioned, an owner on a server nobody else uses, a build that
 * does not answer probes) nothing is concluded and the lease decides, as before. A probe that
 * times out (a paused owner: SIGSTOP, a blocked event loop, a partition the server has not
 * noticed) also concludes nothing: such an owner may still be serving.
 */
import type { NatsConnection, Subscription } from 'nats';
import type { Witness } from './host-view.js';
import { livenessProbeSubject } from './names.js';
import { isNoResponders } from './nats-errors.js';

/** What a taker knows of an owner's incarnation, from its ownership record. */
export interface ProbedOwner {
  hostKey: string;
  incarnation: string;
  server?: string | undefined;
  probes?: boolean | undefined;
}

/**
 * Longest wait for a probe's answer. A live owner answers in a millisecond or two; one that
 * does not answer in time concludes nothing (the lease decides), so a short wait only keeps a
 * stopped owner's activate requests from waiting on it.
 */
const PROBE_TIMEOUT_MS = 100;
/** Incarnations remembered as gone (they never come back), bounded. */
const GONE_REMEMBERED = 4_096;

/** The answering side: one subscription for the current incarnation. */
export class ProbeResponder {
  private sub: Subscription | undefined;

  constructor(
    private readonly nc: NatsConnection,
    private readonly prefix: string,
  ) {}

  /** Answers probes for `incarnation` (and no longer for the previous one); resolves once the server has the interest. */
  async answerFor(incarnation: string): Promise<void> {
    this.stop();
    this.sub = this.nc.subscribe(livenessProbeSubject(this.prefix, incarnation), {
      callback: (err, msg) => {
        if (!err && msg.reply) msg.respond();
      },
    });
    await this.nc.flush();
  }

  /** Stops answering: from here on a probe of this incarnation finds no responder. */
  stop(): void {
    this.sub?.unsubscribe();
    this.sub = undefined;
  }
}

type ProbeResult = 'answered' | 'no-responders' | 'unknown';

/** The taker's side: is an owner's connection certainly gone? */
export class ConnectionProbe {
  private readonly gone = new Set<string>();
  /** Probes in flight, shared by the activations of one dead host's many actors. */
  private readonly inFlight = new Map<string, Promise<boolean>>();

  constructor(
    private readonly nc: NatsConnection,
    private readonly prefix: string,
    /** Live hosts on a server that answer probes (the host view). */
    private readonly witnessesOn: (server: string, except: string) => Witness[],
  ) {}

  /** True only when the server proves the owner's incarnation has no connection left; false when unsure. */
  isGone(owner: ProbedOwner): Promise<boolean> {
    if (this.gone.has(owner.incarnation)) return Promise.resolve(true);
    if (owner.probes !== true || owner.server === undefined) return Promise.resolve(false);
    let pending = this.inFlight.get(owner.incarnation);
    if (!pending) {
      pending = this.check(owner, owner.server).finally(() => this.inFlight.delete(owner.incarnation));
      this.inFlight.set(owner.incarnation, pending);
    }
    return pending;
  }

  private async check(owner: ProbedOwner, server: string): Promise<boolean> {
    let gone: boolean;
    if (server === this.nc.info?.server_name) {
      gone = (await this.probe(owner.incarnation)) === 'no-responders';
    } else {
      const witness = this.witnessesOn(server, owner.hostKey)[0];
      if (!witness) return false;
      const [ownerResult, witnessResult] = await Promise.all([this.probe(owner.incarnation), this.probe(witness.incarnation)]);
      gone = ownerResult === 'no-responders' && witnessResult === 'answered';
    }
    if (gone) this.remember(owner.incarnation);
    return gone;
  }

  private async probe(incarnation: string): Promise<ProbeResult> {
    try {
      await this.nc.request(livenessProbeSubject(this.prefix, incarnation), undefined, { timeout: PROBE_TIMEOUT_MS });
      return 'answered';
    } catch (err) {
      return isNoResponders(err) ? 'no-responders' : 'unknown';
    }
  }

  private remember(incarnation: string): void {
    if (this.gone.size >= GONE_REMEMBERED) this.gone.clear();
    this.gone.add(incarnation);
  }
}
