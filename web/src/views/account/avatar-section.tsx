import { useState } from 'preact/hooks';
import { api, call } from '../../api/client.js';
import { base64Of } from '../../api/base64.js';
import { fitPicture } from './fit-picture.js';
import { issueFor } from '../../api/errors.js';
import type { User } from '../../state/session.js';
import { Avatar, avatarVersion } from '../../ui/avatar.js';
import { ErrorNotice } from '../../ui/error-notice.js';
import { useAction } from '../../ui/use-action.js';
import { useLoad } from '../../ui/use-load.js';
import { useT } from '../../i18n/use-t.js';

/**
 * The picture rooms show beside the user's name. The server re-encodes whatever is uploaded
 * (docs/2026-11-26-profiles-and-accounts.md), so the preview is what others see.
 */
export function AvatarSection(props: { user: User }) {
  const t = useT();
  const current = useLoad(() => call(api.GET('/api/me/avatar')), []);
  const action = useAction();
  const [status, setStatus] = useState('');
  const hasAvatar = Boolean(current.data?.avatar);

  const changed = (message: string) => {
    avatarVersion.value += 1;
    setStatus(message);
    current.reload();
  };
  const upload = (file: File) => {
    setStatus('');
    void action.run(async () => {
      await call(api.PUT('/api/me/avatar', { body: { content: base64Of(await fitPicture(file)) } }));
      changed(t('account.avatar.saved'));
    });
  };
  const remove = () => {
    setStatus('');
    void action.run(async () => {
      await call(api.DELETE('/api/me/avatar'));
      changed(t('account.avatar.removed'));
    });
  };
  const problem = issueFor(action.error, 'content');

  return (
    <section class="account-section" aria-labelledby="account-avatar">
      <h2 id="account-avatar">{t('account.avatar.title')}</h2>
      <div class="avatar-editor">
        <Avatar userId={props.user.id} name={props.user.displayName} size="large" />
        <div class="form">
          <ErrorNotice error={problem ? null : action.error} />
          <div class="field">
            <label for="avatar-file">{t('account.avatar.upload')}</label>
            <input
              id="avatar-file"
              type="file"
              accept="image/jpeg,image/png,image/webp,image/gif"
              disabled={action.busy}
              aria-describedby="avatar-hint"
              aria-invalid={problem ? 'true' : undefined}
              onChange={(event) => {
                const file = event.currentTarget.files?.[0];
                event.currentTarget.value = '';
                if (file) upload(file);
              }}
            />
            <p id="avatar-hint" class="muted">
              {t('account.avatar.hint')}
            </p>
            {problem && (
              <p class="field-error" role="alert">
                {t('account.avatar.problem', { problem })}
              </p>
            )}
          </div>
          {hasAvatar && (
            <button type="button" class="button-quiet" disabled={action.busy} onClick={remove}>
              {t('account.avatar.remove')}
            </button>
          )}
          <p aria-live="polite" class="account-status">
            {action.busy ? t('account.avatar.uploading') : status}
          </p>
        </div>
      </div>
    </section>
  );
}
