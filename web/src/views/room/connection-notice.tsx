/**
 * The state of the room's live connection, in words a person acts on: nothing while it is open,
 * a small status line while it (re)connects, and, when something is wrong, what and the next
 * step, with the time of the next try and a button to try now. When the connection will not
 * come back (signed out, removed, room deleted), `ConnectionEnded` takes the page's place.
 */
import { useEffect, useState } from 'preact/hooks';
import { CLOSE } from '../../../../contracts/ws/constants.js';
import { formatWait } from '../../i18n/format.js';
import { t } from '../../i18n/i18n.js';
import { useT } from '../../i18n/use-t.js';
import type { ConnectionProblem, ConnectionStatus, RoomConnection } from '../../realtime/connection.js';
import { Page } from '../../ui/page.js';
import { signInHref } from '../rooms/sign-in-prompt.js';

export function ConnectionNotice(props: { connection: RoomConnection }) {
  const t = useT();
  const status = props.connection.status.value;
  const now = useNow(status.state === 'reconnecting');
  if (status.state === 'open') return <p class="visually-hidden" role="status">{t('room.connection.connected')}</p>;
  if (status.state === 'connecting') return <p class="notice connection-notice" role="status">{t('room.connection.connecting')}</p>;
  if (status.state === 'ended') return null;
  if (status.state === 'offline') {
    return (
      <div class="notice connection-notice" role="status">
        <p class="notice-title">{t('room.connection.offlineTitle')}</p>
        <p>
          {t('room.connection.offlineBody')}{' '}
          <button type="button" class="button-quiet" onClick={() => props.connection.retryNow()}>
            {t('room.connection.tryNow')}
          </button>
        </p>
      </div>
    );
  }
  const { problem } = status;
  const wait = Math.max(0, status.retryAt - now) / 1000;
  const next = wait < 1 ? t('room.connection.tryingNow') : t('room.connection.tryingIn', { when: formatWait(wait), attempt: status.attempt + 1 });
  return (
    <div class={`notice connection-notice${problem ? ' notice-error' : ''}`} role={problem ? 'alert' : 'status'}>
      <p class="notice-title">{problem ? problemTitle(problem) : t('room.connection.lost')}</p>
      {problem && <p>{problemAdvice(problem)}</p>}
      <p>
        {next}{' '}
        {wait >= 1 && (
          <button type="button" class="button-quiet" onClick={() => props.connection.retryNow()}>
            {t('room.connection.tryNow')}
          </button>
        )}
      </p>
    </div>
  );
}

function problemTitle(problem: ConnectionProblem): string {
  switch (problem.kind) {
    case 'origin':
      return t('room.connection.titles.origin', { origin: location.origin });
    case 'rate_limited':
      return t('room.connection.titles.rateLimited');
    case 'unreachable':
      return t('room.connection.titles.unreachable');
    case 'dropped':
      return t('room.connection.titles.dropped');
    case 'server':
      return t('room.connection.titles.server');
  }
}

function problemAdvice(problem: ConnectionProblem): string {
  switch (problem.kind) {
    case 'origin':
      return t('room.connection.advice.origin', { origin: location.origin, setting: 'server.cors_allowed_origins', message: problem.message });
    case 'rate_limited':
      return t('room.connection.advice.serverSaid', { message: problem.message });
    case 'unreachable':
      return t('room.connection.advice.unreachable');
    case 'dropped':
      // The connection's own finding (a ticket, then a socket that never opened), said here in full.
      return t('room.connection.advice.dropped');
    case 'server':
      return t('room.connection.advice.serverSaid', { message: problem.message });
  }
}

/** The current time, ticking every second while `active` (the countdown to the next try). */
function useNow(active: boolean): number {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [active]);
  return now;
}

/** The page in place of the room once the connection will not come back. */
export function ConnectionEnded(props: { status: Extract<ConnectionStatus, { state: 'ended' }> }) {
  const t = useT();
  const { code, reason } = props.status;
  const signedOut = code === CLOSE.sessionEnded || code === 401;
  const removed = code === CLOSE.membershipEnded || code === 403;
  const deleted = code === CLOSE.roomDeleted || code === 404;
  const title = t(
    signedOut ? 'room.connection.ended.signedOutTitle' : removed ? 'room.connection.ended.removedTitle' : deleted ? 'room.connection.ended.deletedTitle' : 'room.connection.ended.otherTitle',
  );
  const here = `${location.pathname}${location.search}`;
  return (
    <Page title={title}>
      <div class="notice notice-error" role="alert">
        <p class="notice-title">{title}</p>
        <p>
          {signedOut
            ? reason
              ? t('room.connection.ended.signedOutBecause', { reason: `${reason.charAt(0).toUpperCase()}${reason.slice(1)}` })
              : t('room.connection.ended.signedOut')
            : removed
              ? t('room.connection.ended.removed')
              : deleted
                ? t('room.connection.ended.deleted')
                : reason
                  ? t('room.connection.ended.otherBecause', { reason })
                  : t('room.connection.ended.other')}
        </p>
      </div>
      <p>
        {signedOut && (
          <>
            <a class="button-link" href={signInHref(here)}>
              {t('room.connection.ended.signIn')}
            </a>{' '}
          </>
        )}
        <a href="/rooms">{t('room.browseRooms')}</a>
      </p>
    </Page>
  );
}
