import { useT } from '../../i18n/use-t.js';

/** Recovery codes, shown once after they are made: the server keeps only their hashes. */
export function RecoveryCodes(props: { codes: string[]; onDone: () => void }) {
  const t = useT();
  return (
    <div class="notice account-codes" role="status">
      <p class="notice-title">{t('account.recoveryCodes.title')}</p>
      <p>{t('account.recoveryCodes.body')}</p>
      <ul class="account-code-list" aria-label={t('account.recoveryCodes.list')}>
        {props.codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
      <button type="button" onClick={props.onDone}>
        {t('account.recoveryCodes.done')}
      </button>
    </div>
  );
}
