/**
 * Why a join was refused, for the person who pressed Join: a title when the code alone would
 * read wrong, and the next step. The server's own message stays the body (it names the limit,
 * the tries left, the setting); only what to do about it is added here, by code.
 */
import type { ComponentChildren } from 'preact';
import { asApiError } from '../../api/errors.js';
import type { Schemas } from '../../api/types.js';
import { signInHref } from '../rooms/sign-in-prompt.js';

export interface JoinProblem {
  /** Replaces the code's title (null: none, the message says it). */
  title?: string | null;
  next?: ComponentChildren;
  /** The room may have changed (a ban, a deletion): the view should ask for it again. */
  reload?: boolean;
}

export function joinProblem(caught: unknown, room: Schemas['VisitorRoomView']['room'], asGuest: boolean): JoinProblem {
  const error = asApiError(caught);
  const here = `/rooms/${encodeURIComponent(room.id)}`;
  switch (error.code) {
    case 'forbidden':
      if (error.issueFor('password')) return { title: 'Wrong password', next: 'Check the password with the person who shared the link, then try again.' };
      // A ban since the page loaded, or guests turned off: the room's answer to GET says which.
      return {
        reload: true,
        next: asGuest ? (
          <>
            <a href={signInHref(here)}>Sign in</a> with an account to join.
          </>
        ) : undefined,
      };
    case 'limit_exceeded':
      return {
        title: 'This room is full',
        next: `Try again later, once someone leaves${room.requireJoinApproval ? ' or waiting requests are decided' : ''}. How many people a room holds is set by the server’s administrator.`,
      };
    case 'rate_limited':
      return room.hasPassword
        ? { title: 'Too many wrong passwords', next: 'Meanwhile, check the password with the person who shared the link.' }
        : { next: 'Wait, then press Join again.' };
    case 'not_found':
      return {
        title: 'This room no longer exists',
        reload: true,
        next: (
          <>
            It may have been deleted. <a href="/">Browse rooms</a>
          </>
        ),
      };
    case 'unavailable':
    case 'busy':
    case 'deadline_exceeded':
      return { next: 'Press Join again in a moment.' };
    default:
      return {};
  }
}
