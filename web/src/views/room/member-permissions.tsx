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
import { t as translate } from '../../i18n/i18n.js';
import { Rich } from '../../i18n/rich.js';
import { useT } from '../../i18n/use-t.js';
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
  const label = (p: Permission) => translate(`roomSettings.permission.${p}.label`);
  return [
    ...own.grant.map((p) => translate('members.own.granted', { permission: label(p) })),
    ...own.deny.map((p) => translate('members.own.denied', { permission: label(p) })),
  ].join(translate('members.own.separator'));
}

export function MemberPermissionsBadge(props: { member: MemberView }) {
  const t = useT();
  const summary = overrideSummary(props.member);
  if (!summary) return null;
  return (
    <span class="badge badge-own-permissions" title={summary}>
      <Rich k="members.own.badge" parts={{ summary: <span class="visually-hidden">{t('members.own.summary', { summary })}</span> }} />
    </span>
  );
}

export function MemberPermissionsEditor(props: { member: MemberView; run: (command: Parameters<RoomSession['send']>[0]) => void }) {
  const { member, run } = props;
  const t = useT();
  const of = () => <span class="visually-hidden">{t('members.of', { name: member.name })}</span>;
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
        <Rich k="members.own.open" parts={{ of: of() }} />
      </summary>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          save(choices);
        }}
      >
        <p class="hint muted">{t('members.own.hint', { role: t(`common.roomRoles.${member.role}`), name: member.name })}</p>
        <ul class="member-permission-list">
          {PERMISSIONS.map((permission) => {
            const id = `perm-${member.userId}-${permission}`;
            return (
              <li key={permission}>
                <label for={id} title={t(`roomSettings.permission.${permission}.description`)}>
                  {t(`roomSettings.permission.${permission}.label`)}
                </label>
                <select
                  id={id}
                  value={choices[permission]}
                  onChange={(event) => setChoices({ ...choices, [permission]: event.currentTarget.value as Choice })}
                >
                  <option value="role">{t('members.own.asRole')}</option>
                  <option value="grant" disabled={!grantable(member, permission)}>
                    {t('members.own.allowed')}
                  </option>
                  <option value="deny">{t('members.own.notAllowed')}</option>
                </select>
              </li>
            );
          })}
        </ul>
        <span class="member-actions">
          <button type="submit">
            <Rich k="members.own.save" parts={{ of: of() }} />
          </button>
          <button type="button" class="button-quiet" onClick={reset}>
            {t('members.own.reset')}
          </button>
        </span>
      </form>
    </details>
  );
}
