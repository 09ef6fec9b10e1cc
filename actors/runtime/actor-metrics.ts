/**
 * The actor host's series on the process registry (`/metrics` of an `actors` role): live
 * activations, activations by outcome (`taken_over` is a failover), deactivations by reason,
 * command turns by kind and outcome with their turn time, and events published.
 */
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { HostMeter } from './host-meter.js';

export interface ActorHostGauges {
  /** The actor types the host registers: their rare series exist from the start. */
  types: readonly string[];
  /** Live activations per actor type; undefined until the host has started. */
  activeByType(): Record<string, number> | undefined;
}

/** Turn times: most turns are a PostgreSQL write (ms); a slow one waits on a probe or a lock. */
const TURN_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

export function actorHostMetrics(registry: Registry, gauges: ActorHostGauges): HostMeter {
  new Gauge<'type'>({
    name: 'svc_actor_activations_active',
    help: 'Live actor activations on this host, by actor type (rooms: type="room").',
    labelNames: ['type'],
    registers: [registry],
    collect() {
      for (const type of gauges.types) this.set({ type }, gauges.activeByType()?.[type] ?? 0);
    },
  });
  const activations = new Counter<'type' | 'outcome'>({
    name: 'svc_actor_activations_total',
    help: 'Activation requests this host answered, by outcome: created, taken_over (the previous owner was dead: a failover), refused (a live host owns it), failed (the load failed).',
    labelNames: ['type', 'outcome'],
    registers: [registry],
  });
  const deactivations = new Counter<'type' | 'reason'>({
    name: 'svc_actor_deactivations_total',
    help: 'Activations that ended on this host, by reason: idle (passivated), drain (SIGTERM), fenced, shutdown.',
    labelNames: ['type', 'reason'],
    registers: [registry],
  });
  const commands = new Counter<'type' | 'kind' | 'outcome'>({
    name: 'svc_actor_commands_total',
    help: 'Commands an actor handled, by command kind and outcome (ok or the error code of the reply).',
    labelNames: ['type', 'kind', 'outcome'],
    registers: [registry],
  });
  const turnSeconds = new Histogram<'type' | 'kind'>({
    name: 'svc_actor_command_duration_seconds',
    help: 'Turn time of a command: from the actor taking it until its reply was ready (queueing not included).',
    labelNames: ['type', 'kind'],
    buckets: TURN_BUCKETS,
    registers: [registry],
  });
  const events = new Counter<'type'>({
    name: 'svc_actor_events_published_total',
    help: 'Events actors published to their event subject.',
    labelNames: ['type'],
    registers: [registry],
  });
  // A takeover is rare: its series exists from the start so a dashboard sees 0, not "no data".
  for (const type of gauges.types) {
    activations.inc({ type, outcome: 'taken_over' }, 0);
    deactivations.inc({ type, reason: 'fenced' }, 0);
  }
  return {
    activation: (type, outcome) => activations.inc({ type, outcome }),
    deactivation: (type, reason) => deactivations.inc({ type, reason }),
    command: (type, kind, outcome, seconds) => {
      commands.inc({ type, kind, outcome });
      turnSeconds.observe({ type, kind }, seconds);
    },
    published: (type) => events.inc({ type }),
  };
}
