/**
 * The public surface of workflows/: what code outside workflows/ may import (lint refuses a deeper
 * import; tests may reach inside). docs/2026-11-29-public-surfaces.md.
 */
export { createActivities } from './activities.js';
export { registrationReviewId } from './ids.js';
export { MAX_LIST_LIMIT, ReviewClient, type ReviewFilter } from './review-client.js';
export { temporalUiLink, type ReviewLink } from './review-link.js';
export { reviewMetricsSinks } from './review-metrics-sink.js';
export { WorkflowRoomReviewHook } from './room-review/hook.js';
export { actorRoomDecisions } from './room-review/room-decisions.js';
export { ensureSearchAttributes, installTemporalLogging, prepareReviewWorkflows, reviewWorkflowBundle, startReviewWorker } from './worker.js';
