/**
 * Per-role permission overrides of one room: for each role, either the server's defaults or
 * a custom set (a checkbox per permission). Saving replaces the overrides of the roles shown.
 */
import { useEffect, useState } from 'preact/hooks';
import { PERMISSIONS, isAdministration, type Permission } from '../../../../permissions/names.js';
import { api, call } from '../../api/client.js';
import type { Schemas } from '../../api/types.js';
import { ErrorNotice } from '../../ui/error-notice.js';
import { SubmitButton } from '../../ui/field.js';
import { useLoad } from '../../ui/use-load.js';
import { useAction } from '../../ui/use-action.js';

type Role = 'admin' | 'member' | 'guest';
const ROLES: Role[] = ['admin', 'member', 'guest'];
type Draft = Record<Role, Permission[] | null>;
const label = (permission: string) => permission.replaceAll('_', ' ');

export function PermissionsEditor(props: { roomId: string }) {
  const loaded = useLoad(() => call(api.GET('/api/rooms/{roomId}/permissions', { params: { path: { roomId: props.roomId } } })), [props.roomId]);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [saved, setSaved] = useState(false);
  const action = useAction();
  const data: Schemas['RoomPermissions'] | undefined = loaded.data;
  useEffect(() => {
    if (data) setDraft({ admin: data.overrides.admin ?? null, member: data.overrides.member ?? null, guest: data.overrides.guest ?? null });
  }, [data]);

  if (!data || !draft) return loaded.error ? <ErrorNotice error={loaded.error} /> : <p class="muted">Loading permissions…</p>;
  const effective = (role: Role) => draft[role] ?? data.defaults[role];
  const toggle = (role: Role, permission: Permission, on: boolean) => {
    const current = effective(role);
    setDraft({ ...draft, [role]: on ? [...current, permission] : current.filter((entry) => entry !== permission) });
  };
  const submit = async (event: Event) => {
    event.preventDefault();
    setSaved(false);
    const ok = await action.run(async () => {
      const answer = await call(api.PATCH('/api/rooms/{roomId}/permissions', { params: { path: { roomId: props.roomId } }, body: draft }));
      setDraft({ admin: answer.overrides.admin ?? null, member: answer.overrides.member ?? null, guest: answer.overrides.guest ?? null });
    });
    setSaved(ok);
  };

  return (
    <form class="form permissions" onSubmit={(event) => void submit(event)} aria-labelledby="permissions-heading">
      <h3 id="permissions-heading">Permissions by role</h3>
      <ErrorNotice error={action.error} />
      {ROLES.map((role) => (
        <fieldset key={role} class="choice-group">
          <legend>{role[0]!.toUpperCase() + role.slice(1)}s</legend>
          <label class="check">
            <input type="checkbox" checked={draft[role] === null} onChange={(event) => setDraft({ ...draft, [role]: event.currentTarget.checked ? null : [...data.defaults[role]] })} /> Use the server’s defaults
          </label>
          {draft[role] !== null && (
            <div class="permission-grid">
              {PERMISSIONS.map((permission) => (
                <label key={permission} class="check">
                  <input
                    type="checkbox"
                    checked={effective(role).includes(permission)}
                    // Administration stays with the admin role: the room refuses it for members and guests.
                    disabled={role !== 'admin' && isAdministration(permission)}
                    onChange={(event) => toggle(role, permission, event.currentTarget.checked)}
                  />{' '}
                  {label(permission)}
                </label>
              ))}
            </div>
          )}
        </fieldset>
      ))}
      <SubmitButton busy={action.busy}>Save permissions</SubmitButton>
      <p role="status" class="muted">
        {saved ? 'Permissions saved.' : ''}
      </p>
    </form>
  );
}
