/**
 * A room seen from outside: its preview, and joining (with the password when it has one), or
 * why one cannot: a join request waiting, a ban, a room under review or rejected. A refused
 * join shows the server's message with the next step (join-problem.tsx).
 */
import { useEffect, useState } from 'preact/hooks';
import { api, call } from '../../api/client.js';
import { issueFor } from '../../api/errors.js';
import type { Schemas } from '../../api/types.js';
import { ErrorNotice } from '../../ui/error-notice.js';
import { Field, SubmitButton } from '../../ui/field.js';
import { session } from '../../state/session.js';
import { Page } from '../../ui/page.js';
import { joinProblem } from './join-problem.js';
import { ShareLink } from './share-link.js';
import { useT } from '../../i18n/use-t.js';

/**
 * Rooms whose page a person just continued on as a guest: their name was the one step, so the
 * room is joined without a second click when it needs nothing more (no password, no approval).
 * Consumed once, so a guest who leaves is not pulled back in.
 */
export const joinOnArrival = new Set<string>();

export function VisitorView(props: { view: Schemas['VisitorRoomView']; onChanged: () => void }) {
  const t = useT();
  const { room, me } = props.view;
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const asGuest = session.value?.guest != null;
  const problem = error == null ? {} : joinProblem(error, room, asGuest);

  const join = async (event?: Event) => {
    event?.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await call(api.POST('/api/rooms/{roomId}/join', { params: { path: { roomId: room.id } }, body: room.hasPassword ? { password } : {} }));
      props.onChanged();
    } catch (caught) {
      setError(caught);
      setBusy(false);
      if (joinProblem(caught, room, asGuest).reload) props.onChanged();
    }
  };
  useEffect(() => {
    const arriving = joinOnArrival.delete(room.id);
    if (arriving && me.status === 'none' && room.status === 'active' && !room.hasPassword && !room.requireJoinApproval) void join();
  }, [room.id]);
  const withdraw = async () => {
    setError(null);
    try {
      await call(api.POST('/api/rooms/{roomId}/leave', { params: { path: { roomId: room.id } } }));
      props.onChanged();
    } catch (caught) {
      setError(caught);
    }
  };

  let body;
  if (room.status === 'pending_review') body = <p class="notice">{t('room.visitor.pendingReview')}</p>;
  else if (room.status === 'rejected') body = <p class="notice notice-error">{t('room.visitor.rejected')}</p>;
  else if (me.status === 'banned')
    body = (
      <div class="notice notice-error">
        <p class="notice-title">{t('room.visitor.bannedTitle')}</p>
        <p>{t('room.visitor.bannedBody')}</p>
      </div>
    );
  else if (me.status === 'pending')
    body = (
      <div class="notice" role="status">
        <p class="notice-title">{t('room.visitor.requestSentTitle')}</p>
        <p>{t('room.visitor.requestSentBody')}</p>
        <p>
          <button type="button" onClick={props.onChanged}>
            {t('room.visitor.checkAgain')}
          </button>{' '}
          <button type="button" class="button-quiet" onClick={() => void withdraw()}>
            {t('room.visitor.withdraw')}
          </button>
        </p>
      </div>
    );
  else
    body = (
      <form class="form" onSubmit={(event) => void join(event)}>
        {room.requireJoinApproval && <p class="muted">{t('room.visitor.approvalNote')}</p>}
        {room.hasPassword && (
          <Field label={t('room.visitor.password')} type="password" autocomplete="off" required value={password} onValue={setPassword} error={issueFor(error, 'password')} />
        )}
        <SubmitButton busy={busy}>{room.requireJoinApproval ? t('room.visitor.askToJoin') : t('room.visitor.join')}</SubmitButton>
      </form>
    );

  return (
    <Page title={room.name}>
      <p class="muted">
        {t('room.visitor.members', { count: room.memberCount })}
        {room.hasPassword ? ` · ${t('room.visitor.passwordTag')}` : ''}
        {room.requireJoinApproval ? ` · ${t('room.visitor.approvalTag')}` : ''}
      </p>
      <ErrorNotice error={error} title={problem.title} next={problem.next} />
      {body}
      {room.status === 'active' && <ShareLink roomId={room.id} />}
    </Page>
  );
}
