/**
 * One group of runtime settings as a form. Only the keys whose value changed are sent
 * (PATCH /api/admin/setting-groups/<group>); the server writes all of them or none, so on any issue
 * nothing was saved and each issue is shown at its field.
 */
import { useState } from 'preact/hooks';
import { api, call } from '../../../api/client.js';
import { asApiError, type ApiError } from '../../../api/errors.js';
import { ErrorNotice } from '../../../ui/error-notice.js';
import { SubmitButton } from '../../../ui/field.js';
import { SettingField } from './setting-field.js';
import { useT } from '../../../i18n/use-t.js';
import { settingLabel } from './setting-words.js';
import { draftOf, parseDraft, sameSettingValue, sameValue, type Draft, type Setting } from './setting-rules.js';

export function SettingsGroup(props: { group: string; label: string; settings: Setting[]; onSaved: (message: string) => void }) {
  const t = useT();
  const initial = (): Record<string, Draft> => Object.fromEntries(props.settings.map((setting) => [setting.key, draftOf(setting, setting.value)]));
  const [drafts, setDrafts] = useState<Record<string, Draft>>(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState('');

  const save = async (): Promise<void> => {
    setFailure(null);
    setStatus('');
    const changes: Record<string, unknown> = {};
    const problems: Record<string, string> = {};
    for (const setting of props.settings) {
      const draft = drafts[setting.key] ?? draftOf(setting, setting.value);
      // Untouched is unchanged; a credential the listing hides goes back as [redacted], which the server keeps.
      if (sameValue(draft, draftOf(setting, setting.value))) continue;
      const parsed = parseDraft(setting, draft);
      if (!parsed.ok) problems[setting.key] = parsed.message;
      else if (!sameSettingValue(setting, parsed.value, setting.value)) changes[setting.name] = parsed.value;
    }
    setErrors(problems);
    if (Object.keys(problems).length > 0) {
      setStatus(t('admin.settings.fixFirst'));
      return;
    }
    if (Object.keys(changes).length === 0) {
      setStatus(t('admin.settings.nothingChanged'));
      return;
    }
    setBusy(true);
    try {
      // Each group has a path of its own (its body states the group's keys); the form writes the one it shows.
      const path = `/api/admin/setting-groups/${props.group}` as '/api/admin/setting-groups/server';
      const answer = await call(api.PATCH(path, { body: changes }));
      // An OAuth2 instance that now trusts another provider stops signing in its bound identities: say so.
      const warnings = answer.oauth2IssuerChanges.map((change) => t('admin.settings.warning', { message: change.message })).join('');
      const names = answer.changes.map((change) => {
        const setting = props.settings.find((candidate) => candidate.key === change.key);
        return setting ? settingLabel(setting) : change.key;
      });
      props.onSaved(t('admin.settings.saved', { group: props.label, names: names.join(t('admin.list.separator')) || t('admin.settings.noValueChanged'), warnings }));
    } catch (caught) {
      const error = asApiError(caught);
      setFailure(error);
      setErrors(Object.fromEntries(props.settings.flatMap((setting) => {
        const issue = error.issues.find((candidate) => candidate.key === setting.key || candidate.key.startsWith(`${setting.key}.`) || candidate.key.startsWith(`${setting.key}[`));
        return issue ? [[setting.key, issue.message]] : [];
      })));
      setStatus(t('admin.settings.nothingSaved'));
    } finally {
      setBusy(false);
    }
  };

  const headingId = `settings-group-${props.group}`;
  return (
    <section class="settings-group" aria-labelledby={headingId}>
      <h2 id={headingId}>{props.label}</h2>
      <form
        class="form settings-form"
        aria-labelledby={headingId}
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void save();
        }}
      >
        {props.settings.map((setting) => (
          <SettingField
            key={setting.key}
            setting={setting}
            draft={drafts[setting.key] ?? draftOf(setting, setting.value)}
            error={errors[setting.key]}
            onDraft={(draft) => setDrafts((previous) => ({ ...previous, [setting.key]: draft }))}
          />
        ))}
        <ErrorNotice error={failure} />
        <p class="admin-status" role="status">
          {status}
        </p>
        <div class="button-row">
          <SubmitButton busy={busy}>{t('admin.settings.save', { group: props.label })}</SubmitButton>
          <button type="button" disabled={busy} onClick={() => { setDrafts(initial()); setErrors({}); setFailure(null); setStatus(''); }}>
            {t('admin.settings.undo')}
          </button>
        </div>
      </form>
    </section>
  );
}
