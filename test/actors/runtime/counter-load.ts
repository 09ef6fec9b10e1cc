/**
 * Load on the counter actors for the runtime's failure tests: one sequential sender per actor
 * (increments, reads and slow commands), an event subscriber per actor, and the invariants every
 * such test checks afterwards: no two activations of an id ran commands at once, every
 * acknowledged increment committed exactly once, and no subscriber saw seq go backwards.
 */
import { setTimeout } from 'node:timers/promises';
import type { ExecutionContext } from 'ava';
import type { NatsConnection } from 'nats';
import { ActorClient } from '../../../actors/runtime/client.js';
import { ActorEvents } from '../../../actors/runtime/events.js';
import { AppError } from '../../../errors/app-error.js';
import { handledLines, overlappingActivations } from '../../fixtures/activation-audit.js';
import { committedValue, type ActorHostProcess } from '../../fixtures/actor-host-process.js';
import type { CounterResult } from '../../fixtures/counter-actor.js';
import { eventually } from '../../fixtures/deadline.js';
import { caller } from './fixture.js';

const ACTORS = 12;

export interface Load {
  /** Resolves when every sender has stopped; rejects with the first failed send. */
  stop(): Promise<void>;
  /** Commands answered so far, all actors together. */
  answered(): number;
  acknowledgedIncrements: Map<string, number>;
  /** Seqs each actor's subscriber saw, in delivery order. */
  seqs: Map<string, number[]>;
}

/**
 * Sends until the command is not shed: a `busy` answer (the host's load shedding on a CPU-starved
 * machine) says the command never ran, and a client tries again, as the gateways' callers do.
 */
export async function sendUnlessShed<T>(send: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await send();
    } catch (err) {
      if (!(err instanceof AppError && err.code === 'busy') || attempt >= 50) throw err;
      await setTimeout(50 * Math.min(attempt, 10));
    }
  }
}

/** One sequential sender per actor, alternating increments and reads, plus an event subscriber per actor. */
export function startLoad(nc: NatsConnection, prefix: string): Load {
  const client = new ActorClient(nc, prefix);
  const events = new ActorEvents(nc, prefix);
  const acknowledgedIncrements = new Map<string, number>();
  const seqs = new Map<string, number[]>();
  let answered = 0;
  let running = true;
  const unsubscribes: Array<() => void> = [];
  const senders = Array.from({ length: ACTORS }, async (_, n) => {
    const id = `a${n}`;
    acknowledgedIncrements.set(id, 0);
    seqs.set(id, []);
    unsubscribes.push(events.subscribe('counter', id, (event) => seqs.get(id)?.push(event.seq)));
    for (let i = 0; running; i++) {
      // Every third command outlasts the client's first try (250 ms): the client then asks the
      // pool to resolve the actor again, which is how a takeover finds an owner still serving.
      const op = ['inc', 'get', 'sleep'][i % 3] as 'inc' | 'get' | 'sleep';
      await sendUnlessShed(() => client.send<CounterResult>('counter', id, op === 'sleep' ? { op, ms: 300 } : { op }, { caller, timeoutMs: 20_000 }));
      if (op === 'inc') acknowledgedIncrements.set(id, (acknowledgedIncrements.get(id) ?? 0) + 1);
      answered += 1;
    }
  });
  const all = Promise.all(senders);
  return {
    acknowledgedIncrements,
    seqs,
    answered: () => answered,
    async stop() {
      running = false;
      try {
        await all;
      } finally {
        for (const unsubscribe of unsubscribes) unsubscribe();
      }
    },
  };
}

/** Waits until `count` more commands than now have been answered. */
export async function answeredMore(load: Load, count: number, timeoutMs: number, what: string): Promise<void> {
  const target = load.answered() + count;
  await eventually(() => load.answered() >= target, timeoutMs, what);
}

export async function checkInvariants(t: ExecutionContext, hosts: ActorHostProcess[], load: Load, pgUrl: string): Promise<void> {
  const overlaps = overlappingActivations(handledLines(hosts));
  t.deepEqual(overlaps, [], 'no two activations of one id ran commands at the same time');
  for (const [id, acknowledged] of load.acknowledgedIncrements) {
    t.is(await committedValue(pgUrl, id), acknowledged, `${id}: every acknowledged increment committed exactly once`);
  }
  for (const [id, seqs] of load.seqs) {
    const backwards = seqs.filter((seq, i) => i > 0 && seq <= (seqs[i - 1] as number));
    t.deepEqual(backwards, [], `${id}: the subscriber never saw seq go backwards`);
  }
}

