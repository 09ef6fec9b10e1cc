/**
 * The decision signals every review workflow accepts. Their names are what a reviewer types
 * into the Temporal UI ("Send a Signal": `approve` or `reject`), so they never change.
 * Sandbox-safe.
 */
import { defineSignal } from '@temporalio/workflow';
import type { ReviewDecisionInput } from '../contracts/review.js';

/** `{"reviewer": "alice", "reason": "optional"}` */
export const approveSignal = defineSignal<[ReviewDecisionInput]>('approve');
/** `{"reviewer": "alice", "reason": "required"}` */
export const rejectSignal = defineSignal<[ReviewDecisionInput & { reason: string }]>('reject');
/** The name of each review workflow's query answering its view (never its secrets). */
export const REQUEST_QUERY_NAME = 'request';
