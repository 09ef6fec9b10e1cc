import { useEffect, useState } from 'preact/hooks';
import { api, call } from '../../api/client.js';
import type { Schemas } from '../../api/types.js';
import { ErrorNotice } from '../../ui/error-notice.js';
import { useLoad } from '../../ui/use-load.js';
import { useAction } from '../../ui/use-action.js';
import type { ParseKeys } from 'i18next';
import { useT } from '../../i18n/use-t.js';

type Preferences = Schemas['NotificationPreferences'];
type Kind = keyof Preferences;

const LABELS: Record<Kind, ParseKeys> = {
  'review.decided': 'account.notifications.kinds.reviewDecided',
  'join_request.decided': 'account.notifications.kinds.joinRequestDecided',
  'room.role_changed': 'account.notifications.kinds.roleChanged',
  'chat.mention': 'account.notifications.kinds.mention',
};

/** Which notifications to receive; each switch is saved as soon as it changes. */
export function NotificationsSection() {
  const t = useT();
  const loaded = useLoad(() => call(api.GET('/api/me/notification-preferences')), []);
  const [preferences, setPreferences] = useState<Preferences | undefined>(undefined);
  const [saved, setSaved] = useState('');
  const action = useAction();
  useEffect(() => setPreferences(loaded.data), [loaded.data]);

  const toggle = (kind: Kind, on: boolean) =>
    void action.run(async () => {
      setSaved('');
      setPreferences(await call(api.PATCH('/api/me/notification-preferences', { body: { [kind]: on } })));
      setSaved(t('account.saved'));
    });

  return (
    <section class="account-section" aria-labelledby="account-notifications">
      <h2 id="account-notifications">{t('account.notifications.title')}</h2>
      <ErrorNotice error={loaded.error ?? action.error} />
      {preferences && (
        <fieldset class="account-checks">
          <legend>{t('account.notifications.legend')}</legend>
          {(Object.keys(LABELS) as Kind[]).map((kind) => (
            <label key={kind} class="account-check">
              <input type="checkbox" checked={preferences[kind]} disabled={action.busy} onChange={(event) => toggle(kind, event.currentTarget.checked)} />
              {t(LABELS[kind])}
            </label>
          ))}
        </fieldset>
      )}
      <p aria-live="polite" class="account-status">
        {saved}
      </p>
    </section>
  );
}
