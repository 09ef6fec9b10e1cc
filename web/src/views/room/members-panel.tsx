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

type Role = MemberView['role'];
const ROLES: Role[] = ['admin', 'member', 'guest'];
/**
 * One badge per member: the role. A member who joined as a guest holds the guest role only
 * (the server refuses any other), so the role's badge already says "Guest".
 */
const ROLE_LABELS: Record<Role, string> = { admin: 'Admin', member: 'Member', guest: 'Guest' };

export function MembersPanel(props: { session: RoomSession }) {
  const { session } = props;
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
      <h2 id="members-heading">Members</h2>
      <ErrorNotice error={action.error} onDismiss={action.clear} />
      {manage && pending.length > 0 && (
        <section aria-labelledby="requests-heading">
          <h3 id="requests-heading">Join requests</h3>
          <ul class="member-list">
            {pending.map((member) => (
              <li key={member.userId} class="member">
                <span class="member-name">{member.name}</span>
                <span class="member-actions">
                  <button type="button" onClick={() => run({ kind: 'member.approve', userId: member.userId })}>
                    Approve<span class="visually-hidden"> {member.name}</span>
                  </button>
                  <button type="button" class="button-quiet" onClick={() => run({ kind: 'member.reject', userId: member.userId })}>
                    Reject<span class="visually-hidden"> {member.name}</span>
                  </button>
                </span>
              </li>
            ))}
          </ul>
        </section>
      )}
      {view.members ? (
        <ul class="member-list" aria-label="Room members">
          {members.map((member) => (
            <li key={member.userId} class="member">
              <span class="member-name">
                <span class={member.online ? 'presence online' : 'presence'} aria-hidden="true" />
                <Avatar userId={member.userId} name={member.name} guest={member.guest} /> {member.name}
                {member.userId === me && ' (you)'}
              </span>
              <span class="member-meta">
                {member.isOwner && <span class="badge">Owner</span>}
                <span class="badge">{ROLE_LABELS[member.role]}</span>
                <MemberPermissionsBadge member={member} />
                <span class="muted">{member.online ? 'online' : 'offline'}</span>
              </span>
              {manage && member.userId !== me && !member.isOwner && <ManageMember member={member} run={run} />}
            </li>
          ))}
        </ul>
      ) : (
        <p class="muted">You cannot see the member list.</p>
      )}
      {manage && banned.length > 0 && (
        <section aria-labelledby="bans-heading">
          <h3 id="bans-heading">Banned</h3>
          <ul class="member-list">
            {banned.map((member) => (
              <li key={member.userId} class="member">
                <span class="member-name">{member.name}</span>
                <button type="button" onClick={() => run({ kind: 'member.unban', userId: member.userId })}>
                  Unban<span class="visually-hidden"> {member.name}</span>
                </button>
              </li>
            ))}
          </ul>
          {(view.bannedCount ?? 0) > banned.length && (
            // The room view carries the first page of bans only; the rest are lifted through the API.
            <p class="muted">and {(view.bannedCount ?? 0) - banned.length} more</p>
          )}
        </section>
      )}
    </section>
  );
}

function ManageMember(props: { member: MemberView; run: (command: Parameters<RoomSession['send']>[0]) => void }) {
  const { member, run } = props;
  const [role, setRole] = useState<Role>(member.role);
  const id = `role-${member.userId}`;
  return (
    <span class="member-actions">
      {!member.guest && (
        <span class="role-picker">
          <label for={id} class="visually-hidden">
            Role of {member.name}
          </label>
          <select id={id} value={role} onChange={(event) => setRole(event.currentTarget.value as Role)}>
            {ROLES.filter((option) => option !== 'guest').map((option) => (
              <option key={option} value={option}>
                {option}
              </option>
            ))}
          </select>
          <button type="button" disabled={role === member.role} onClick={() => run({ kind: 'member.setRole', userId: member.userId, role })}>
            Set role<span class="visually-hidden"> of {member.name}</span>
          </button>
        </span>
      )}
      <MemberPermissionsEditor member={member} run={run} />
      <button type="button" onClick={() => run({ kind: 'member.kick', userId: member.userId })}>
        Kick<span class="visually-hidden"> {member.name}</span>
      </button>
      <button type="button" class="button-danger" onClick={() => run({ kind: 'member.ban', userId: member.userId })}>
        Ban<span class="visually-hidden"> {member.name}</span>
      </button>
    </span>
  );
}
