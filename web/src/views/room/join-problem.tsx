/**
 * Why a join was refused, for the person who pressed Join: a title when the code alone would
 * read wrong, and the next step. The server's own message stays the body (it names the limit,
 * the tries left, the setting); only what to do about it is added here, by code.
 */
import type { ComponentChildren } from 'preact';
import { asApiError } from '../../api/errors.js';
import type { Schemas } from '../../api/types.js';
import { signInHref } from '../rooms/sign-in-prompt.js';
import { t } from '../../i18n/i18n.js';
import { Rich } from '../../i18n/rich.js';

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
      if (error.issueFor('password')) return { title: t('room.joinProblem.wrongPasswordTitle'), next: t('room.joinProblem.wrongPasswordNext') };
      // A ban since the page loaded, or guests turned off: the room's answer to GET says which.
      return {
        reload: true,
        next: asGuest ? <Rich k="room.joinProblem.signInToJoin" parts={{ signIn: <a href={signInHref(here)}>{t('room.joinProblem.signInLink')}</a> }} /> : undefined,
      };
    case 'limit_exceeded':
      return {
        title: t('room.joinProblem.fullTitle'),
        next: t(room.requireJoinApproval ? 'room.joinProblem.fullNextWithRequests' : 'room.joinProblem.fullNext'),
      };
    case 'rate_limited':
      return room.hasPassword
        ? { title: t('room.joinProblem.tooManyPasswordsTitle'), next: t('room.joinProblem.tooManyPasswordsNext') }
        : { next: t('room.joinProblem.waitThenJoin') };
    case 'not_found':
      return {
        title: t('room.joinProblem.goneTitle'),
        reload: true,
        next: <Rich k="room.joinProblem.goneNext" parts={{ browse: <a href="/">{t('room.browseRooms')}</a> }} />,
      };
    case 'unavailable':
    case 'busy':
    case 'deadline_exceeded':
      return { next: t('room.joinProblem.joinAgainSoon') };
    default:
      return {};
  }
}
