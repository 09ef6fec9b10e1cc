/**
 * The review worker's series (`/metrics` of a `worker` role): reviews started and decided by
 * kind and outcome, the time from request to decision, and the reviews pending, counted by
 * Temporal's visibility store when scraped (one count per kind, at most every 10 s).
 */
import type { InjectedSinks } from '@temporalio/worker';
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { REVIEW_KINDS, type ReviewKind } from '../contracts/review.js';
import type { Logger } from '../observability/index.js';
import type { ReviewMetricsSinks } from './review-metrics.js';

/** A scrape every 15 s must not turn into a visibility query each time on several workers. */
const PENDING_REFRESH_MS = 10_000;
/** Reviews wait for a person: seconds to days. */
const DECISION_BUCKETS = [1, 10, 60, 300, 1800, 3600, 4 * 3600, 12 * 3600, 86_400, 3 * 86_400, 7 * 86_400];

export interface PendingReviews {
  countPending(kind: ReviewKind): Promise<number>;
}

export function reviewMetricsSinks(registry: Registry, pending: PendingReviews, logger: Logger): InjectedSinks<ReviewMetricsSinks> {
  const started = new Counter<'kind'>({
    name: 'svc_reviews_started_total',
    help: 'Reviews (registration, room) whose workflow this worker started running.',
    labelNames: ['kind'],
    registers: [registry],
  });
  const decided = new Counter<'kind' | 'outcome'>({
    name: 'svc_reviews_decided_total',
    help: 'Reviews decided, by kind and outcome (approved, rejected, expired).',
    labelNames: ['kind', 'outcome'],
    registers: [registry],
  });
  const latency = new Histogram<'kind' | 'outcome'>({
    name: 'svc_review_decision_seconds',
    help: 'Time from a review being requested (its workflow start) until it was decided.',
    labelNames: ['kind', 'outcome'],
    buckets: DECISION_BUCKETS,
    registers: [registry],
  });
  for (const kind of REVIEW_KINDS) {
    started.inc({ kind }, 0);
    for (const outcome of ['approved', 'rejected', 'expired']) decided.inc({ kind, outcome }, 0);
  }
  const counts = new Map<ReviewKind, number>();
  let refreshedAt = -Infinity;
  new Gauge<'kind'>({
    name: 'svc_reviews_pending',
    help: 'Reviews waiting for a decision, by kind (Temporal visibility; eventually consistent).',
    labelNames: ['kind'],
    registers: [registry],
    async collect() {
      if (performance.now() - refreshedAt >= PENDING_REFRESH_MS) {
        refreshedAt = performance.now();
        await Promise.all(
          REVIEW_KINDS.map(async (kind) => {
            try {
              counts.set(kind, await pending.countPending(kind));
            } catch (err) {
              // The last count stands; a Temporal outage shows on the readiness probe.
              logger.debug({ err, kind }, 'could not count pending reviews');
            }
          }),
        );
      }
      for (const [kind, count] of counts) this.set({ kind }, count);
    },
  });
  return {
    reviewMetrics: {
      started: { fn: (_info, kind) => started.inc({ kind }) },
      decided: {
        fn: (info, kind, outcome) => {
          decided.inc({ kind, outcome });
          latency.observe({ kind, outcome }, Math.max(0, (Date.now() - info.startTime.getTime()) / 1000));
        },
      },
    },
  };
}
