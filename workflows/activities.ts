/**
 * The activities of the review workflows, built from their dependencies (the
 * activities-dependency-injection pattern): the worker is given implementations of the
 * decision interfaces and the workflows only know these functions' names and types.
 */
import type { RegistrationDecisions, RoomDecisions } from './decisions.js';
import { asActivity } from './failures.js';

export interface ReviewActivities {
  approveRegistration(input: { reviewId: string; sealedPayload: string; reviewer: string; reason?: string }): Promise<{ userId: string }>;
  rejectRegistration(input: { reviewId: string; reviewer: string; reason: string }): Promise<void>;
  expireRegistration(input: { reviewId: string }): Promise<void>;
  decideRoom(input: { roomId: string; approve: boolean; reviewer: string; reason?: string }): Promise<void>;
}

export function createActivities(deps: { registrations: RegistrationDecisions; rooms: RoomDecisions }): ReviewActivities {
  const { registrations, rooms } = deps;
  return {
    approveRegistration: (input) => asActivity(() => registrations.approve(input)),
    rejectRegistration: (input) => asActivity(() => registrations.reject(input)),
    expireRegistration: (input) => asActivity(() => registrations.expire(input)),
    decideRoom: (input) => asActivity(() => rooms.decide(input)),
  };
}
