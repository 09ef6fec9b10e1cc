/**
 * Per-role permission overrides of one room: for each role, either the server's defaults or
 * a custom set (a checkbox per permission, in plain words). The boxes always show what the
 * role holds: the server's defaults while the room follows them (ticking a box makes the
 * room's own set from there). Guests are offered only what the guest ceiling allows
 * (contracts/permissions/defaults.ts), since the room refuses anything else for them. Saving replaces
 * the overrides of the roles shown.
 */
import { useEffect, useState } from 'preact/hooks';
import { GUEST_PERMISSION_CEILING, isWithinGuestCeiling } from '../../../../contracts/permissions/defaults.js';
import { PERMISSIONS, isAdministration, isMemberPermission, type Permission } from '../../../../contracts/permissions/names.js';
import { api, call } from '../../api/client.js';
import type { Schemas } from '../../api/types.js';
import { ErrorNotice } from '../../ui/error-notice.js';
import { SubmitButton } from '../../ui/field.js';
import { useLoad } from '../../ui/use-load.js';
import { useAction } from '../../ui/use-action.js';
import { t as translate } from '../../i18n/i18n.js';
import { useT } from '../../i18n/use-t.js';

type Role = 'admin' | 'member' | 'guest';
const ROLES: Role[] = ['admin', 'member', 'guest'];
type Draft = Record<Role, Permission[] | null>;
/** What each role can be given: guests no more than the ceiling. */
const OFFERED: Record<Role, readonly Permission[]> = { admin: PERMISSIONS, member: PERMISSIONS, guest: GUEST_PERMISSION_CEILING };
const lower = (text: string) => text[0]!.toLowerCase() + text.slice(1);

/** "Everyone … Guests can at most write in the chat, read the chat and vote.", in the page's language. */
function guestNote(): string {
  const labels = GUEST_PERMISSION_CEILING.map((p) => lower(translate(`roomSettings.permission.${p}.label`)));
  const last = labels.pop() ?? '';
  const list = labels.length === 0 ? last : translate('roomSettings.permissions.listLast', { rest: labels.join(translate('roomSettings.permissions.listSeparator')), last });
  return translate('roomSettings.permissions.guestNote', { list });
}

export function PermissionsEditor(props: { roomId: string }) {
  const t = useT();
  const loaded = useLoad(() => call(api.GET('/api/rooms/{roomId}/permissions', { params: { path: { roomId: props.roomId } } })), [props.roomId]);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [saved, setSaved] = useState(false);
  const action = useAction();
  const data: Schemas['RoomPermissions'] | undefined = loaded.data;
  useEffect(() => {
    if (data) setDraft({ admin: data.overrides.admin ?? null, member: data.overrides.member ?? null, guest: data.overrides.guest ?? null });
  }, [data]);

  if (!data || !draft) return loaded.error ? <ErrorNotice error={loaded.error} /> : <p class="muted">{t('roomSettings.permissions.loading')}</p>;
  const effective = (role: Role) => draft[role] ?? data.defaults[role];
  const toggle = (role: Role, permission: Permission, on: boolean) => {
    const current = effective(role).filter((entry) => OFFERED[role].includes(entry));
    setDraft({ ...draft, [role]: on ? [...current, permission] : current.filter((entry) => entry !== permission) });
  };
  const submit = async (event: Event) => {
    event.preventDefault();
    setSaved(false);
    const ok = await action.run(async () => {
      const answer = await call(api.PATCH('/api/rooms/{roomId}/permissions', { params: { path: { roomId: props.roomId } }, body: { admin: draft.admin, member: draft.member?.filter(isMemberPermission) ?? null, guest: draft.guest?.filter(isWithinGuestCeiling) ?? null } }));
      setDraft({ admin: answer.overrides.admin ?? null, member: answer.overrides.member ?? null, guest: answer.overrides.guest ?? null });
    });
    setSaved(ok);
  };

  return (
    <form class="form permissions" onSubmit={(event) => void submit(event)} aria-labelledby="permissions-heading">
      <h3 id="permissions-heading">{t('roomSettings.permissions.heading')}</h3>
      <ErrorNotice error={action.error} />
      {ROLES.map((role) => (
        <fieldset key={role} class="choice-group" data-role={role}>
          <legend>{t(`roomSettings.permissions.roles.${role}`)}</legend>
          {role === 'guest' && <p class="muted">{guestNote()}</p>}
          <label class="check permission-defaults">
            <input type="checkbox" checked={draft[role] === null} onChange={(event) => setDraft({ ...draft, [role]: event.currentTarget.checked ? null : [...data.defaults[role]] })} /> {t('roomSettings.permissions.useDefaults')}
          </label>
          <div class="permission-grid">
            {OFFERED[role].map((permission) => (
              <label key={permission} class="check permission-choice">
                <input
                  type="checkbox"
                  name={`${role}.${permission}`}
                  checked={effective(role).includes(permission)}
                  // Administration stays with the admin role: the room refuses it for members and guests.
                  disabled={role !== 'admin' && isAdministration(permission)}
                  onChange={(event) => toggle(role, permission, event.currentTarget.checked)}
                />{' '}
                <span>
                  {t(`roomSettings.permission.${permission}.label`)}
                  <span class="permission-description muted">{t(`roomSettings.permission.${permission}.description`)}</span>
                </span>
              </label>
            ))}
          </div>
        </fieldset>
      ))}
      <SubmitButton busy={action.busy}>{t('roomSettings.permissions.save')}</SubmitButton>
      <p role="status" class="muted">
        {saved ? t('roomSettings.permissions.saved') : ''}
      </p>
    </form>
  );
}
