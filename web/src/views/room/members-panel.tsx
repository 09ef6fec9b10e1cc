/**
 * Members with their role and presence, the owner marked, and a badge for a member's own
 * permissions; with `manage_members`, role changes, a member's own permissions, kick and ban, join requests to approve or reject, and bans to lift. Every action is a room
 * command; the list follows the events it causes.
 */
import { useState } from 'preact/hooks';
import type { MemberView } from '../../state/room-view.js';
import type { RoomSession } from '../../state/room.js';
import { Avatar } from '../../ui/avatar.js';
import { ErrorNotice } from '../../ui/error-notice.js';
import { useAction } from '../../ui/use-action.js';
import { MemberPermissionsBadge, MemberPermissionsEditor } from './member-permissions.js';
import { Rich } from '../../i18n/rich.js';
import { useT } from '../../i18n/use-t.js';

type Role = MemberView['role'];
const ROLES: Role[] = ['admin', 'member', 'guest'];
// One badge per member: the role (members.roles). A member who joined as a guest holds the
// guest role only (the server refuses any other), so the role's badge already says "Guest".

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
  const run = (command: Parameters<RoomSession['send']>[0]) => void action.run(() => session.send(command));

  return (
    <section aria-labelledby="members-heading">
      <h2 id="members-heading">{t('members.heading')}</h2>
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
      {view.members ? (
        <ul class="member-list" aria-label={t('members.list')}>
          {members.map((member) => (
            <li key={member.userId} class="member">
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
          ))}
        </ul>
      ) : (
        <p class="muted">{t('members.cannotSee')}</p>
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

function ManageMember(props: { member: MemberView; run: (command: Parameters<RoomSession['send']>[0]) => void }) {
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
