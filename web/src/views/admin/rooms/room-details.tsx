/**
 * A room as the service sees it: settings, members, join requests, bans and the playlist, and
 * deleting it (asked twice). After a delete the page goes back to the list.
 */
import { useLocation } from 'preact-iso';
import { api, call } from '../../../api/client.js';
import type { Schemas } from '../../../api/types.js';
import { ErrorNotice } from '../../../ui/error-notice.js';
import { Page } from '../../../ui/page.js';
import { useLoad } from '../../../ui/use-load.js';
import { ConfirmAction } from '../confirm-action.js';
import { formatTime } from '../../../ui/format.js';
import { roomStatusInWords } from '../format.js';

type Member = Schemas['MemberView'];

export function RoomDetails(props: { roomId?: string; params?: { roomId?: string } }) {
  const roomId = props.params?.roomId ?? props.roomId ?? '';
  const { route } = useLocation();
  const loaded = useLoad(() => call(api.GET('/api/admin/rooms/{roomId}', { params: { path: { roomId } } })), [roomId]);
  const view = loaded.data;
  const room = view?.room;
  return (
    <Page title={room ? `Room ${room.name}` : 'Room'} wide>
      <p>
        <a href="/admin/rooms">All rooms</a>
      </p>
      <ErrorNotice error={loaded.error} />
      {view && room && (
        <>
          <dl class="admin-facts">
            <dt>Room ID</dt>
            <dd>
              <code>{room.id}</code>
            </dd>
            <dt>Owner</dt>
            <dd>
              <a href={`/admin/users/${room.ownerId}`}>{room.ownerId}</a>
            </dd>
            <dt>Status</dt>
            <dd>{roomStatusInWords(room.status)}</dd>
            <dt>Visibility</dt>
            <dd>{room.visibility}</dd>
            <dt>Password</dt>
            <dd>{room.hasPassword ? 'yes' : 'no'}</dd>
            <dt>Join approval</dt>
            <dd>{room.requireJoinApproval ? 'required' : 'not required'}</dd>
            <dt>Created</dt>
            <dd>{formatTime(room.createdAt)}</dd>
            <dt>Changed</dt>
            <dd>{formatTime(room.updatedAt)}</dd>
            <dt>Playback</dt>
            <dd>{view.playback.mediaId ? `${view.playback.playing ? 'playing' : 'paused'} at ${Math.round(view.playback.position)} s` : 'nothing selected'}</dd>
          </dl>
          <MemberTable title="Members" id="room-members" members={view.members} />
          <MemberTable title="Join requests" id="room-pending" members={view.pendingMembers} />
          <MemberTable title="Banned" id="room-banned" members={view.bannedMembers} />
          <section aria-labelledby="room-playlist">
            <h2 id="room-playlist">Playlist</h2>
            {!view.playlist || view.playlist.length === 0 ? (
              <p class="muted">Empty.</p>
            ) : (
              <ol class="admin-playlist">
                {view.playlist.map((item) => (
                  <li key={item.id}>
                    <span class="admin-break">{item.title}</span> <span class="muted">({item.live ? 'live, ' : ''}{item.provider})</span>
                    <br />
                    <span class="muted admin-break">{item.url}</span>
                  </li>
                ))}
              </ol>
            )}
          </section>
          <section aria-labelledby="room-actions">
            <h2 id="room-actions">Actions</h2>
            <ConfirmAction
              label="Delete room"
              question={`Delete ${room.name} for good? Its members are disconnected and its playlist and chat are gone.`}
              confirmLabel="Yes, delete"
              onConfirm={async () => {
                await call(api.DELETE('/api/admin/rooms/{roomId}', { params: { path: { roomId } } }));
                route('/admin/rooms');
              }}
            />
          </section>
        </>
      )}
    </Page>
  );
}

function MemberTable(props: { title: string; id: string; members: Member[] | undefined }) {
  return (
    <section aria-labelledby={props.id}>
      <h2 id={props.id}>{props.title}</h2>
      {!props.members || props.members.length === 0 ? (
        <p class="muted">None.</p>
      ) : (
        <div class="table-wrap" role="region" aria-labelledby={props.id} tabIndex={0}>
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Role</th>
                <th scope="col">Since</th>
                <th scope="col">Online</th>
              </tr>
            </thead>
            <tbody>
              {props.members.map((member) => (
                <tr key={member.userId}>
                  <td>
                    {member.guest ? member.name : <a href={`/admin/users/${member.userId}`}>{member.name}</a>}
                    {member.isOwner && ' (owner)'}
                    {member.guest && ' (guest)'}
                  </td>
                  <td>{member.role}</td>
                  <td>{formatTime(member.joinedAt)}</td>
                  <td>{member.online ? 'yes' : 'no'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
