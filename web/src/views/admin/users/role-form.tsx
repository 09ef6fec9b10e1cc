/** The service role of an account, for a root (PUT /api/admin/users/{userId}/role). */
import { useState } from 'preact/hooks';
import { api, call } from '../../../api/client.js';
import type { Schemas } from '../../../api/types.js';
import { ErrorNotice } from '../../../ui/error-notice.js';
import { SubmitButton } from '../../../ui/field.js';

type Role = Schemas['User']['role'];

export function RoleForm(props: { userId: string; role: Role; onChanged: (role: Role) => void }) {
  const [role, setRole] = useState<Role>(props.role);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const submit = async (): Promise<void> => {
    setBusy(true);
    setError(null);
    try {
      const change = await call(api.PUT('/api/admin/users/{userId}/role', { params: { path: { userId: props.userId } }, body: { role } }));
      props.onChanged(change.user.role);
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form
      class="form admin-role-form"
      aria-label="Change the service role"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <div class="field">
        <label for="user-role">Service role</label>
        <p class="field-hint" id="user-role-hint">
          admin manages users, rooms, reviews and settings; root also grants roles.
        </p>
        <select id="user-role" aria-describedby="user-role-hint" value={role} onChange={(event) => setRole(event.currentTarget.value as Role)}>
          <option value="user">user</option>
          <option value="admin">admin</option>
          <option value="root">root</option>
        </select>
      </div>
      <ErrorNotice error={error} />
      <div>
        <SubmitButton busy={busy}>Change role</SubmitButton>
      </div>
    </form>
  );
}
