/**
 * The workflow code the worker bundles (workflowsPath): every review workflow, and nothing
 * that is not sandbox-safe.
 */
export { registrationReview } from './registration-review/workflow.js';
export { roomReview } from './room-review/workflow.js';
