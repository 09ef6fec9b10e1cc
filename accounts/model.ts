/**
 * The account records other modules see. Service roles are about the whole service
 * (administration, reviews); room roles live in the room actor.
 */
import { ServiceRole } from '../contracts/http/user-view.js';
import type { UserState } from '../contracts/management.js';

export const SERVICE_ROLES = ServiceRole.options;
export type { ServiceRole, UserState };

export const USER_STATES = ['active', 'banned'] as const satisfies readonly UserState[];

/** Signup modes, each behind its own runtime setting and review flag. */
export const SIGNUP_MODES = ['password', 'email', 'webauthn', 'oauth2'] as const;
export type SignupMode = (typeof SIGNUP_MODES)[number];

export interface User {
  id: string;
  username: string;
  displayName: string;
  email: string | null;
  role: ServiceRole;
  state: UserState;
  createdAt: Date;
  lastLoginAt: Date | null;
}

/** Who is making a request, resolved once at the edge from a verified access token. */
export type Caller =
  | { kind: 'user'; userId: string; sessionId: string; username: string; displayName: string; role: ServiceRole }
  | { kind: 'guest'; guestId: string; sessionId: string; displayName: string };

/** A caller with an account (the endpoint router hands these to `user` and `admin` endpoints). */
export type UserCaller = Extract<Caller, { kind: 'user' }>;

/** The id a caller acts under: the user's, or the guest's own. */
export function subjectOf(caller: Caller): string {
  return caller.kind === 'user' ? caller.userId : caller.guestId;
}

export function isAdmin(caller: Caller | undefined): boolean {
  return caller?.kind === 'user' && (caller.role === 'admin' || caller.role === 'root');
}
