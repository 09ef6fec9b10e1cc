/**
 * What an actor host tells its meter: activations, their ends, command turns and events. The
 * runtime only calls these hooks; `actor-metrics.ts` turns them into Prometheus
 * series. Labels stay bounded: actor type, a command kind the type maps into its own closed
 * set (ActorType.commandKind), an error code from the closed ErrorCode list, never an id.
 */
import type { DeactivationReason } from './actor-type.js';

/**
 * How an activation request ended on this host: `created` (no record existed), `taken_over`
 * (the record named another host, or an older incarnation of this one, whose liveness was
 * gone: a failover), `refused` (a live host owns it or won the race), `failed`
 * (the actor's load failed).
 */
export type ActivationOutcome = 'created' | 'taken_over' | 'refused' | 'failed';

export interface HostMeter {
  activation(type: string, outcome: ActivationOutcome): void;
  deactivation(type: string, reason: DeactivationReason): void;
  /** One command turn: `outcome` is `ok` or the reply's error code; `seconds` the turn's time. */
  command(type: string, kind: string, outcome: string, seconds: number): void;
  published(type: string): void;
}

export const NO_METER: HostMeter = {
  activation: () => undefined,
  deactivation: () => undefined,
  command: () => undefined,
  published: () => undefined,
};
