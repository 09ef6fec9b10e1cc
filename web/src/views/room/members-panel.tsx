/**
 * Members with their role and presence, the owner marked, and a badge for a member's own
 * permissions; with `manage_members`, role changes, a member's own permissions, kick and ban, join requests to approve or reject, and bans to lift. Every action is a room
 * command; the list follows the events it causes. A crowd's view lists only its owner and admins
 * (docs/2026-11-30-crowds.md): everyone else is read a page at a time, searched by name.
 */
import { useEffect, useMemo, useState } from 'preact/hooks';
import { listedInCrowd } from '../../../../contracts/room/crowd.js';
import { ROOM_LIMITS } from '../../../../contracts/room/limits.js';
import { api, call } from '../../api/client.js';
import { MemberPages, type FetchMemberPage } from '../../state/member-pages.js';
import type { MemberView } from '../../state/room-view.js';
import type { RoomSession } from '../../state/room.js';
import { Avatar } from '../../ui/avatar.js';
import { ErrorNotice } from '../../ui/error-notice.js';
import { Field } from '../../ui/field.js';
import { useAction } from '../../ui/use-action.js';
import { MemberPermissionsBadge, MemberPermissionsEditor } from './member-permissions.js';
import { Rich } from '../../i18n/rich.js';
import { useT } from '../../i18n/use-t.js';

type Role = MemberView['role'];
type Command = Parameters<RoomSession['send']>[0];
const ROLES: Role[] = ['admin', 'member', 'guest'];
// One badge per member: the role (members.roles). A member who joined as a guest holds the
// guest role only (the server refuses any other), so the role's badge already says "Guest".

// Typing pauses this long before a search goes to the server.
const SEARCH_DELAY_MS = 300;

export function MembersPanel(props: { session: RoomSession }) {
  const { session } = props;
  const t = useT();
  const view = session.view.value;
  const action = useAction();
  const manage = session.can('manage_members');
  if (!view) return null;
  const me = view.me.userId;
  const members = [...(view.members ?? [])].sort((a, b) => Number(b.online) - Number(a.online) || a.name.localeCompare(b.name));
  const pending = view.pendingMembers ?? [];
  const banned = view.bannedMembers ?? [];
  const send = (command: Command) => action.run(() => session.send(command));
  const run = (command: Command) => void send(command);
  const { headcount } = view;
  const listed = (
    <ul class="member-list" aria-label={t('members.list')}>
      {members.map((member) => (
        <MemberRow key={member.userId} member={member} me={me} manage={manage} run={run} />
      ))}
    </ul>
  );

  return (
    <section aria-labelledby="members-heading">
      <h2 id="members-heading">{t('members.heading')}</h2>
      <p class="muted">
        {t('members.headcount', { members: t('members.memberCount', { count: headcount.members }), online: t('members.onlineCount', { count: headcount.online }) })}
      </p>
      <ErrorNotice error={action.error} onDismiss={action.clear} />
      {manage && pending.length > 0 && (
        <section aria-labelledby="requests-heading">
          <h3 id="requests-heading">{t('members.requests')}</h3>
          <ul class="member-list">
            {pending.map((member) => (
              <li key={member.userId} class="member">
                <span class="member-name">{member.name}</span>
                <span class="member-actions">
                  <button type="button" onClick={() => run({ kind: 'member.approve', userId: member.userId })}>
                    <Rich k="members.approve" parts={{ name: <span class="visually-hidden"> {member.name}</span> }} />
                  </button>
                  <button type="button" class="button-quiet" onClick={() => run({ kind: 'member.reject', userId: member.userId })}>
                    <Rich k="members.reject" parts={{ name: <span class="visually-hidden"> {member.name}</span> }} />
                  </button>
                </span>
              </li>
            ))}
          </ul>
        </section>
      )}
      {!view.members ? (
        <p class="muted">{t('members.cannotSee')}</p>
      ) : headcount.crowd ? (
        <>
          <section aria-labelledby="hosts-heading">
            <h3 id="hosts-heading">{t('members.hosts')}</h3>
            {listed}
          </section>
          <Everyone roomId={session.roomId} me={me} manage={manage} send={send} />
        </>
      ) : (
        listed
      )}
      {manage && banned.length > 0 && (
        <section aria-labelledby="bans-heading">
          <h3 id="bans-heading">{t('members.banned')}</h3>
          <ul class="member-list">
            {banned.map((member) => (
              <li key={member.userId} class="member">
                <span class="member-name">{member.name}</span>
                <button type="button" onClick={() => run({ kind: 'member.unban', userId: member.userId })}>
                  <Rich k="members.unban" parts={{ name: <span class="visually-hidden"> {member.name}</span> }} />
                </button>
              </li>
            ))}
          </ul>
          {(view.bannedCount ?? 0) > banned.length && (
            // The room view carries the first page of bans only; the rest are lifted through the API.
            <p class="muted">{t('members.moreBanned', { count: (view.bannedCount ?? 0) - banned.length })}</p>
          )}
        </section>
      )}
    </section>
  );
}

/** A crowd's members past its owner and admins, a page at a time, narrowed by name and presence. */
function Everyone(props: { roomId: string; me: string; manage: boolean; send: (command: Command) => Promise<boolean> }) {
  const { roomId, me, manage, send } = props;
  const t = useT();
  const pages = useMemo(() => new MemberPages(membersOf(roomId)), [roomId]);
  const [query, setQuery] = useState('');
  const [onlineOnly, setOnlineOnly] = useState(false);
  const q = useSettled(query.trim(), SEARCH_DELAY_MS);
  useEffect(() => {
    void pages.show({ q, onlineOnly });
  }, [pages, q, onlineOnly]);
  // No event tells a crowd's list of a kick, a ban or a role change: read the shown pages again.
  const run = (command: Command) => void send(command).then((done) => (done ? pages.refresh() : undefined));
  const members = pages.members.value;

  return (
    <section aria-labelledby="everyone-heading">
      <h3 id="everyone-heading">{t('members.everyone')}</h3>
      <div role="search">
        <Field type="search" label={t('members.search')} maxLength={ROOM_LIMITS.memberQueryMaxChars} value={query} onValue={setQuery} />
        <label class="check">
          <input type="checkbox" checked={onlineOnly} onChange={(event) => setOnlineOnly(event.currentTarget.checked)} /> {t('members.onlineOnly')}
        </label>
      </div>
      <ErrorNotice error={pages.error.value} />
      <p class="muted">
        {members === null
          ? t('members.loading')
          : members.length === 0
            ? t('members.noMatch')
            : t('members.shown', { shown: members.length, count: pages.total.value })}
      </p>
      {members && members.length > 0 && (
        <ul class="member-list" aria-labelledby="everyone-heading">
          {members.map((member) => (
            // Hosts are managed in their list above, which events keep current (and their controls twice would repeat element ids).
            <MemberRow key={member.userId} member={member} me={me} manage={manage && !listedInCrowd(member)} run={run} />
          ))}
        </ul>
      )}
      {pages.hasMore.value && (
        <button type="button" onClick={() => void pages.more()} disabled={pages.loading.value}>
          {t('members.showMore')}
        </button>
      )}
    </section>
  );
}

function membersOf(roomId: string): FetchMemberPage {
  return (query) => call(api.GET('/api/rooms/{roomId}/members', { params: { path: { roomId }, query } }));
}

/** `value` once it has stopped changing for `ms`. */
function useSettled<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

function MemberRow(props: { member: MemberView; me: string; manage: boolean; run: (command: Command) => void }) {
  const { member, me, manage, run } = props;
  const t = useT();
  return (
    <li class="member">
      <span class="member-name">
        <span class={member.online ? 'presence online' : 'presence'} aria-hidden="true" />
        <Avatar userId={member.userId} name={member.name} guest={member.guest} /> {member.name}
        {member.userId === me && t('members.you')}
      </span>
      <span class="member-meta">
        {member.isOwner && <span class="badge">{t('members.owner')}</span>}
        <span class="badge">{t(`members.roles.${member.role}`)}</span>
        <MemberPermissionsBadge member={member} />
        <span class="muted">{t(member.online ? 'members.online' : 'members.offline')}</span>
      </span>
      {manage && member.userId !== me && !member.isOwner && <ManageMember member={member} run={run} />}
    </li>
  );
}

function ManageMember(props: { member: MemberView; run: (command: Command) => void }) {
  const { member, run } = props;
  const t = useT();
  const [role, setRole] = useState<Role>(member.role);
  const id = `role-${member.userId}`;
  return (
    <span class="member-actions">
      {!member.guest && (
        <span class="role-picker">
          <label for={id} class="visually-hidden">
            {t('members.roleOf', { name: member.name })}
          </label>
          <select id={id} value={role} onChange={(event) => setRole(event.currentTarget.value as Role)}>
            {ROLES.filter((option) => option !== 'guest').map((option) => (
              <option key={option} value={option}>
                {t(`common.roomRoles.${option}`)}
              </option>
            ))}
          </select>
          <button type="button" disabled={role === member.role} onClick={() => run({ kind: 'member.setRole', userId: member.userId, role })}>
            <Rich k="members.setRole" parts={{ of: <span class="visually-hidden">{t('members.of', { name: member.name })}</span> }} />
          </button>
        </span>
      )}
      <MemberPermissionsEditor member={member} run={run} />
      <button type="button" onClick={() => run({ kind: 'member.kick', userId: member.userId })}>
        <Rich k="members.kick" parts={{ name: <span class="visually-hidden"> {member.name}</span> }} />
      </button>
      <button type="button" class="button-danger" onClick={() => run({ kind: 'member.ban', userId: member.userId })}>
        <Rich k="members.ban" parts={{ name: <span class="visually-hidden"> {member.name}</span> }} />
      </button>
    </span>
  );
}
