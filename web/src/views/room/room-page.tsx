/**
 * A room (`/rooms/:roomId`): members get the live room (socket, player, panels), everyone else
 * the preview with what joining takes. Which one is decided by `GET /api/rooms/{roomId}`, asked
 * again after a join so an approved member moves on without a reload. A friend who opens a
 * shared link without a session gives a name and is in: the guest session, then the join, when
 * the room asks nothing more (no password, no approval).
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { useRoute } from 'preact-iso';
import { api, call } from '../../api/client.js';
import type { Schemas } from '../../api/types.js';
import { loadPublicInfo } from '../../state/public-info.js';
import { currentId, session } from '../../state/session.js';
import { ErrorNotice } from '../../ui/error-notice.js';
import { Page } from '../../ui/page.js';
import { useLoad } from '../../ui/use-load.js';
import { SignInPrompt } from '../rooms/sign-in-prompt.js';
import { MemberRoom } from './member-room.js';
import { VisitorView } from './visitor-view.js';
import './room.css';

export function RoomPage() {
  const roomId = useRoute().params.roomId ?? '';
  useEffect(() => void loadPublicInfo().catch(() => undefined), []);
  const who = currentId.value;
  const arrivedAsGuest = useRef(false);
  if (session.value === undefined) return <Page title="Room">{<p aria-live="polite">Loading…</p>}</Page>;
  if (!who)
    return (
      <Page title="Room">
        <SignInPrompt
          next={`/rooms/${encodeURIComponent(roomId)}`}
          why="You are invited to watch together. Sign in, or give a name to join as a guest."
          onGuest={() => (arrivedAsGuest.current = true)}
        />
      </Page>
    );
  return <RoomFor key={`${roomId}:${who}`} roomId={roomId} joinAtOnce={arrivedAsGuest.current} />;
}

function RoomFor(props: { roomId: string; joinAtOnce: boolean }) {
  const room = useLoad(() => call(api.GET('/api/rooms/{roomId}', { params: { path: { roomId: props.roomId } } })), [props.roomId]);
  const joining = useJoinAtOnce(props.joinAtOnce ? room.data : undefined, room.reload);
  if (joining.busy) return <Page title="Room">{<p aria-live="polite">Joining the room…</p>}</Page>;
  if (room.loading && !room.data) return <Page title="Room">{<p aria-live="polite">Loading the room…</p>}</Page>;
  if (!room.data)
    return (
      <Page title="Room">
        <ErrorNotice error={room.error} />
        <p>
          <a href="/rooms">Browse rooms</a>
        </p>
      </Page>
    );
  if (room.data.access === 'member') return <MemberRoom roomId={props.roomId} onLeft={room.reload} />;
  return (
    <>
      {joining.error !== null && <ErrorNotice error={joining.error} />}
      <VisitorView view={room.data} onChanged={room.reload} />
    </>
  );
}

/** Joins once, for a guest who just arrived by the link, where joining needs no further answer. */
function useJoinAtOnce(view: Schemas['RoomView'] | null | undefined, joined: () => void): { busy: boolean; error: unknown } {
  const [state, setState] = useState<{ busy: boolean; error: unknown }>({ busy: false, error: null });
  const tried = useRef(false);
  const ready = view?.access === 'visitor' && view.room.status === 'active' && view.me.status === 'none' && !view.room.hasPassword && !view.room.requireJoinApproval;
  useEffect(() => {
    if (!ready || tried.current) return;
    tried.current = true;
    setState({ busy: true, error: null });
    call(api.POST('/api/rooms/{roomId}/join', { params: { path: { roomId: view.room.id } }, body: {} })).then(
      // Still busy until the reload shows the member's room (no flash of the visitor view).
      () => joined(),
      (error: unknown) => setState({ busy: false, error }),
    );
  }, [ready]);
  return { busy: state.busy && view?.access !== 'member', error: state.error };
}
