/**
 * One member's own permissions on top of their role (docs/2026-11-26-member-permissions.md):
 * a badge in the member list that says what differs from the role, and, for those who manage
 * members, an editor with one choice per permission: as the role says, allowed, or not allowed.
 * Allowed is offered only where the room accepts it (administration stays with admins, guests
 * under their ceiling), so the form cannot ask for what the server would refuse.
 */
import { useState } from 'preact/hooks';
import { isWithinGuestCeiling } from '../../../../contracts/permissions/defaults.js';
import { PERMISSIONS, isAdministration, type Permission } from '../../../../contracts/permissions/names.js';
import { PERMISSION_WORDS } from '../../../../contracts/permissions/labels.js';
import type { MemberView } from '../../state/room-view.js';
import type { RoomSession } from '../../state/room.js';

type Choice = 'role' | 'grant' | 'deny';

function grantable(member: MemberView, permission: Permission): boolean {
  if (member.role !== 'admin' && isAdministration(permission)) return false;
  return member.role !== 'guest' || isWithinGuestCeiling(permission);
}

/** "+ Control playback, − Write in the chat": what this member holds beyond or without the role. */
export function overrideSummary(member: MemberView): string | null {
  const own = member.permissionOverride;
  if (!own || (own.grant.length === 0 && own.deny.length === 0)) return null;
  return [...own.grant.map((p) => `+ ${PERMISSION_WORDS[p].label}`), ...own.deny.map((p) => `− ${PERMISSION_WORDS[p].label}`)].join(', ');
}

export function MemberPermissionsBadge(props: { member: MemberView }) {
  const summary = overrideSummary(props.member);
  if (!summary) return null;
  return (
    <span class="badge badge-own-permissions" title={summary}>
      Own permissions<span class="visually-hidden">: {summary}</span>
    </span>
  );
}

export function MemberPermissionsEditor(props: { member: MemberView; run: (command: Parameters<RoomSession['send']>[0]) => void }) {
  const { member, run } = props;
  const initial = (): Record<Permission, Choice> => {
    const choices = Object.fromEntries(PERMISSIONS.map((p) => [p, 'role'])) as Record<Permission, Choice>;
    for (const p of member.permissionOverride?.grant ?? []) choices[p] = 'grant';
    for (const p of member.permissionOverride?.deny ?? []) choices[p] = 'deny';
    return choices;
  };
  const [choices, setChoices] = useState(initial);
  const save = (next: Record<Permission, Choice>) =>
    run({
      kind: 'member.setPermissions',
      userId: member.userId,
      grant: PERMISSIONS.filter((p) => next[p] === 'grant'),
      deny: PERMISSIONS.filter((p) => next[p] === 'deny'),
    });
  const reset = () => {
    const cleared = Object.fromEntries(PERMISSIONS.map((p) => [p, 'role'])) as Record<Permission, Choice>;
    setChoices(cleared);
    save(cleared);
  };
  return (
    <details class="member-permissions">
      <summary>
        Permissions<span class="visually-hidden"> of {member.name}</span>
      </summary>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          save(choices);
        }}
      >
        <p class="hint muted">On top of the {member.role} role, for {member.name} only.</p>
        <ul class="member-permission-list">
          {PERMISSIONS.map((permission) => {
            const id = `perm-${member.userId}-${permission}`;
            return (
              <li key={permission}>
                <label for={id} title={PERMISSION_WORDS[permission].description}>
                  {PERMISSION_WORDS[permission].label}
                </label>
                <select
                  id={id}
                  value={choices[permission]}
                  onChange={(event) => setChoices({ ...choices, [permission]: event.currentTarget.value as Choice })}
                >
                  <option value="role">As the role</option>
                  <option value="grant" disabled={!grantable(member, permission)}>
                    Allowed
                  </option>
                  <option value="deny">Not allowed</option>
                </select>
              </li>
            );
          })}
        </ul>
        <span class="member-actions">
          <button type="submit">
            Save permissions<span class="visually-hidden"> of {member.name}</span>
          </button>
          <button type="button" class="button-quiet" onClick={reset}>
            Back to the role
          </button>
        </span>
      </form>
    </details>
  );
}
