/** The service role of an account, for a root (PUT /api/admin/users/{userId}/role). */
import { useState } from 'preact/hooks';
import { api, call } from '../../../api/client.js';
import type { Schemas } from '../../../api/types.js';
import { ErrorNotice } from '../../../ui/error-notice.js';
import { SubmitButton } from '../../../ui/field.js';
import { useT } from '../../../i18n/use-t.js';

type Role = Schemas['User']['role'];

export function RoleForm(props: { userId: string; role: Role; onChanged: (role: Role) => void }) {
  const t = useT();
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
      aria-label={t('admin.users.roleForm.label')}
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <div class="field">
        <label for="user-role">{t('admin.users.roleForm.role')}</label>
        <p class="field-hint" id="user-role-hint">
          {t('admin.users.roleForm.hint')}
        </p>
        <select id="user-role" aria-describedby="user-role-hint" value={role} onChange={(event) => setRole(event.currentTarget.value as Role)}>
          <option value="user">{t('admin.users.roles.user')}</option>
          <option value="admin">{t('admin.users.roles.admin')}</option>
          <option value="root">{t('admin.users.roles.root')}</option>
        </select>
      </div>
      <ErrorNotice error={error} />
      <div>
        <SubmitButton busy={busy}>{t('admin.users.roleForm.submit')}</SubmitButton>
      </div>
    </form>
  );
}
