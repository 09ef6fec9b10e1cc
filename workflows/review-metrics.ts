/**
 * The review workflows' side of their metrics: a sink (workflow code cannot reach the worker's
 * registry) that the worker implements in review-metrics-sink.ts. Sink calls are not made
 * again when a workflow is replayed, so a review is counted started and decided once per
 * worker that ran those steps live. Sandbox-safe (workflow code).
 */
import { proxySinks, type Sinks } from '@temporalio/workflow';
import type { ReviewKind, ReviewOutcome } from '../contracts/review.js';

export interface ReviewMetricsSinks extends Sinks {
  reviewMetrics: {
    started(kind: ReviewKind): void;
    decided(kind: ReviewKind, outcome: ReviewOutcome): void;
  };
}

export const { reviewMetrics } = proxySinks<ReviewMetricsSinks>();
