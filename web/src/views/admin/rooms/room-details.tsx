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
import { useT } from '../../../i18n/use-t.js';

type Member = Schemas['MemberView'];

export function RoomDetails(props: { roomId?: string; params?: { roomId?: string } }) {
  const t = useT();
  const roomId = props.params?.roomId ?? props.roomId ?? '';
  const { route } = useLocation();
  const loaded = useLoad(() => call(api.GET('/api/admin/rooms/{roomId}', { params: { path: { roomId } } })), [roomId]);
  const view = loaded.data;
  const room = view?.room;
  return (
    <Page title={room ? t('admin.rooms.details.title', { name: room.name }) : t('admin.rooms.details.titleLoading')} wide>
      <p>
        <a href="/admin/rooms">{t('admin.rooms.details.all')}</a>
      </p>
      <ErrorNotice error={loaded.error} />
      {view && room && (
        <>
          <dl class="admin-facts">
            <dt>{t('admin.rooms.facts.id')}</dt>
            <dd>
              <code>{room.id}</code>
            </dd>
            <dt>{t('admin.rooms.facts.owner')}</dt>
            <dd>
              <a href={`/admin/users/${room.ownerId}`}>{room.ownerId}</a>
            </dd>
            <dt>{t('admin.rooms.facts.status')}</dt>
            <dd>{roomStatusInWords(room.status)}</dd>
            <dt>{t('admin.rooms.facts.visibility')}</dt>
            <dd>{t(`admin.rooms.visibilities.${room.visibility}`)}</dd>
            <dt>{t('admin.rooms.facts.password')}</dt>
            <dd>{room.hasPassword ? t('admin.rooms.facts.yes') : t('admin.rooms.facts.no')}</dd>
            <dt>{t('admin.rooms.facts.joinApproval')}</dt>
            <dd>{room.requireJoinApproval ? t('admin.rooms.facts.required') : t('admin.rooms.facts.notRequired')}</dd>
            <dt>{t('admin.rooms.facts.created')}</dt>
            <dd>{formatTime(room.createdAt)}</dd>
            <dt>{t('admin.rooms.facts.changed')}</dt>
            <dd>{formatTime(room.updatedAt)}</dd>
            <dt>{t('admin.rooms.facts.playback')}</dt>
            <dd>
              {view.playback.mediaId
                ? t(view.playback.playing ? 'admin.rooms.facts.playing' : 'admin.rooms.facts.paused', { seconds: Math.round(view.playback.position) })
                : t('admin.rooms.facts.nothingSelected')}
            </dd>
          </dl>
          <MemberTable title={t('admin.rooms.members.members')} id="room-members" members={view.members} />
          <MemberTable title={t('admin.rooms.members.joinRequests')} id="room-pending" members={view.pendingMembers} />
          <MemberTable title={t('admin.rooms.members.banned')} id="room-banned" members={view.bannedMembers} />
          <section aria-labelledby="room-playlist">
            <h2 id="room-playlist">{t('admin.rooms.details.playlist')}</h2>
            {!view.playlist || view.playlist.length === 0 ? (
              <p class="muted">{t('admin.rooms.details.playlistEmpty')}</p>
            ) : (
              <ol class="admin-playlist">
                {view.playlist.map((item) => (
                  <li key={item.id}>
                    <span class="admin-break">{item.title}</span> <span class="muted">{t(item.live ? 'admin.rooms.details.sourceLive' : 'admin.rooms.details.source', { provider: item.provider })}</span>
                    <br />
                    <span class="muted admin-break">{item.url}</span>
                  </li>
                ))}
              </ol>
            )}
          </section>
          <section aria-labelledby="room-actions">
            <h2 id="room-actions">{t('admin.rooms.details.actions')}</h2>
            <ConfirmAction
              label={t('admin.rooms.details.delete')}
              question={t('admin.rooms.details.deleteQuestion', { name: room.name })}
              confirmLabel={t('admin.rooms.details.deleteConfirm')}
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
  const t = useT();
  return (
    <section aria-labelledby={props.id}>
      <h2 id={props.id}>{props.title}</h2>
      {!props.members || props.members.length === 0 ? (
        <p class="muted">{t('admin.rooms.members.none')}</p>
      ) : (
        <div class="table-wrap" role="region" aria-labelledby={props.id} tabIndex={0}>
          <table>
            <thead>
              <tr>
                <th scope="col">{t('admin.rooms.members.name')}</th>
                <th scope="col">{t('admin.rooms.members.role')}</th>
                <th scope="col">{t('admin.rooms.members.since')}</th>
                <th scope="col">{t('admin.rooms.members.online')}</th>
              </tr>
            </thead>
            <tbody>
              {props.members.map((member) => (
                <tr key={member.userId}>
                  <td>
                    {member.guest ? member.name : <a href={`/admin/users/${member.userId}`}>{member.name}</a>}
                    {member.isOwner && t('admin.rooms.members.owner')}
                    {member.guest && t('admin.rooms.members.guest')}
                  </td>
                  <td>{t(`common.roomRoles.${member.role}`)}</td>
                  <td>{formatTime(member.joinedAt)}</td>
                  <td>{member.online ? t('admin.rooms.members.onlineYes') : t('admin.rooms.members.onlineNo')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
