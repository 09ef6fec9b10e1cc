/**
 * Names of review workflows in Temporal, in one place (as `actors/runtime/names.ts` is for
 * NATS subjects): workflow ids and the custom search attributes reviewers filter on.
 *
 * Ids are deterministic. A signup retried by the client, or a `room.create` retried by its
 * owner, names the same review and finds the one already running instead of opening a second.
 * Sandbox-safe: the workflows import the search attribute keys from here.
 */
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';
import { AppError } from '../errors/index.js';
import type { RegistrationMode, ReviewKind } from '../contracts/review.js';

/** registration | room */
export const SvcReviewKind = defineSearchAttributeKey('SvcReviewKind', SearchAttributeType.KEYWORD);
/** password | email | webauthn | oauth2 | room */
export const SvcReviewMode = defineSearchAttributeKey('SvcReviewMode', SearchAttributeType.KEYWORD);
/** The username, or the room name. */
export const SvcReviewSubject = defineSearchAttributeKey('SvcReviewSubject', SearchAttributeType.KEYWORD);
/** pending | approved | rejected | expired; updated by the workflow when it is decided. */
export const SvcReviewState = defineSearchAttributeKey('SvcReviewState', SearchAttributeType.KEYWORD);

/** Every custom search attribute of the review workflows (registered by `ensureSearchAttributes`). */
export const REVIEW_SEARCH_ATTRIBUTES = [SvcReviewKind, SvcReviewMode, SvcReviewSubject, SvcReviewState] as const;

const PREFIX: Record<ReviewKind, string> = {
  registration: 'registration-review:',
  room: 'room-review:',
};

/** Longest subject key or room id accepted in an id (Temporal allows 1000 bytes per id). */
const MAX_KEY_CHARS = 256;

/** `registration-review:<mode>:<subjectKey>`; the subject key is the normalised username. */
export function registrationReviewId(mode: RegistrationMode, subjectKey: string): string {
  return `${PREFIX.registration}${mode}:${checkKey('subjectKey', subjectKey)}`;
}

/** `room-review:<roomId>` */
export function roomReviewId(roomId: string): string {
  return `${PREFIX.room}${checkKey('roomId', roomId)}`;
}

/** The kind of review an id names, or undefined for any other workflow id. */
export function reviewKindOf(reviewId: string): ReviewKind | undefined {
  if (reviewId.startsWith(PREFIX.registration)) return 'registration';
  if (reviewId.startsWith(PREFIX.room)) return 'room';
  return undefined;
}

function checkKey(name: string, value: string): string {
  // Printable only: ids are shown in the Temporal UI and typed into `svc review` commands.
  // eslint-disable-next-line no-control-regex
  if (value.length === 0 || value.length > MAX_KEY_CHARS || /[\u0000-\u001f\u007f]/.test(value)) {
    throw AppError.invalid([{ key: name, message: `must be 1..${MAX_KEY_CHARS} printable characters` }]);
  }
  return value;
}
