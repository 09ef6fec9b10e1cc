/**
 * The state of the room's live connection, in words a person acts on: nothing while it is open,
 * a small status line while it (re)connects, and, when something is wrong, what and the next
 * step, with the time of the next try and a button to try now. When the connection will not
 * come back (signed out, removed, room deleted), `ConnectionEnded` takes the page's place.
 */
import { useEffect, useState } from 'preact/hooks';
import { CLOSE } from '../../../../contracts/ws/constants.js';
import { formatWait } from '../../i18n/format.js';
import type { ConnectionProblem, ConnectionStatus, RoomConnection } from '../../realtime/connection.js';
import { Page } from '../../ui/page.js';
import { signInHref } from '../rooms/sign-in-prompt.js';

export function ConnectionNotice(props: { connection: RoomConnection }) {
  const status = props.connection.status.value;
  const now = useNow(status.state === 'reconnecting');
  if (status.state === 'open') return <p class="visually-hidden" role="status">Connected to the room.</p>;
  if (status.state === 'connecting') return <p class="notice connection-notice" role="status">Connecting to the room…</p>;
  if (status.state === 'ended') return null;
  if (status.state === 'offline') {
    return (
      <div class="notice connection-notice" role="status">
        <p class="notice-title">This device is offline</p>
        <p>
          The room reconnects as soon as the network is back.{' '}
          <button type="button" class="button-quiet" onClick={() => props.connection.retryNow()}>
            Try now
          </button>
        </p>
      </div>
    );
  }
  const { problem } = status;
  const wait = Math.max(0, status.retryAt - now) / 1000;
  const next = wait < 1 ? 'Trying again now…' : `Trying again ${formatWait(wait)} (attempt ${status.attempt + 1}).`;
  return (
    <div class={`notice connection-notice${problem ? ' notice-error' : ''}`} role={problem ? 'alert' : 'status'}>
      <p class="notice-title">{problem ? problemTitle(problem) : 'Connection to the room lost: reconnecting'}</p>
      {problem && <p>{problemAdvice(problem)}</p>}
      <p>
        {next}{' '}
        {wait >= 1 && (
          <button type="button" class="button-quiet" onClick={() => props.connection.retryNow()}>
            Try now
          </button>
        )}
      </p>
    </div>
  );
}

function problemTitle(problem: ConnectionProblem): string {
  switch (problem.kind) {
    case 'origin':
      return `This page’s address (${location.origin}) is not allowed to open the room’s live connection`;
    case 'rate_limited':
      return 'Too many connection attempts: waiting before the next one';
    case 'unreachable':
      return 'The server cannot be reached';
    case 'dropped':
      return 'The live connection closes before it opens';
    case 'server':
      return 'The room’s live connection was refused';
  }
}

function problemAdvice(problem: ConnectionProblem): string {
  switch (problem.kind) {
    case 'origin':
      return `Open the room at the service’s own address, or ask the operator to add ${location.origin} to server.cors_allowed_origins. The server said: ${problem.message}.`;
    case 'rate_limited':
      return `The server said: ${problem.message}.`;
    case 'unreachable':
      return 'Check your network connection; the page keeps trying.';
    case 'dropped':
      return `The server ${problem.message.replace(/^the server /, '')}. If this keeps happening, tell the operator.`;
    case 'server':
      return `The server said: ${problem.message}.`;
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
  const { code, reason } = props.status;
  const signedOut = code === CLOSE.sessionEnded || code === 401;
  const removed = code === CLOSE.membershipEnded || code === 403;
  const deleted = code === CLOSE.roomDeleted || code === 404;
  const title = signedOut ? 'You are signed out' : removed ? 'You were removed from this room' : deleted ? 'This room was deleted' : 'Disconnected from the room';
  const here = `${location.pathname}${location.search}`;
  return (
    <Page title={title}>
      <div class="notice notice-error" role="alert">
        <p class="notice-title">{title}</p>
        <p>
          {signedOut
            ? `${reason ? `${reason.charAt(0).toUpperCase()}${reason.slice(1)}` : 'Your session ended'}. Sign in again to come back to the room.`
            : removed
              ? 'A room admin removed or banned you, or your membership ended. You no longer see the room.'
              : deleted
                ? 'The room and its playlist and chat no longer exist.'
                : `The connection cannot be restored${reason ? `: ${reason}` : ''}. Reload the page to try again.`}
        </p>
      </div>
      <p>
        {signedOut && (
          <>
            <a class="button-link" href={signInHref(here)}>
              Sign in
            </a>{' '}
          </>
        )}
        <a href="/rooms">Browse rooms</a>
      </p>
    </Page>
  );
}
