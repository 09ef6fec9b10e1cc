/**
 * OAuth2 sign-in providers as a group of fields each: kind, name, client ID and secret,
 * issuer (OpenID Connect only), return address and the sign-up switches.
 */
import { useId } from 'preact/hooks';
import { Field } from '../../../ui/field.js';
import { SecretField } from './list-editors.js';
import type { ProviderKind, ProviderRow } from './setting-rules.js';
import { useT } from '../../../i18n/use-t.js';

// Names of protocols and products, the same in every language.
const KINDS: { value: ProviderKind; label: string }[] = [
  { value: 'github', label: 'GitHub' },
  { value: 'oidc', label: 'OpenID Connect (Google, Keycloak, …)' },
];

const NEW_PROVIDER: ProviderRow = {
  kind: 'github',
  instanceName: '',
  clientId: '',
  clientSecret: '',
  secretSaved: false,
  issuer: '',
  redirectUrl: '',
  enableSignup: false,
  signupNeedReview: false,
};

export function OAuth2ProvidersEditor(props: { value: ProviderRow[]; onChange: (value: ProviderRow[]) => void }) {
  const t = useT();
  const set = (index: number, change: Partial<ProviderRow>) => props.onChange(props.value.map((row, at) => (at === index ? { ...row, ...change } : row)));
  return (
    <div class="setting-rows">
      {props.value.length === 0 && <p class="muted">{t('admin.settings.providers.none')}</p>}
      {props.value.map((row, index) => (
        <ProviderFields key={index} index={index} row={row} onChange={(change) => set(index, change)} onRemove={() => props.onChange(props.value.filter((_, at) => at !== index))} />
      ))}
      <div>
        <button type="button" onClick={() => props.onChange([...props.value, { ...NEW_PROVIDER }])}>
          {t('admin.settings.providers.add')}
        </button>
      </div>
    </div>
  );
}

function ProviderFields(props: { index: number; row: ProviderRow; onChange: (change: Partial<ProviderRow>) => void; onRemove: () => void }) {
  const t = useT();
  const { row, index } = props;
  const id = useId();
  return (
    <fieldset class="setting-entry">
      <legend>{row.instanceName ? t('admin.settings.providers.named', { n: index + 1, name: row.instanceName }) : t('admin.settings.entries.provider', { n: index + 1 })}</legend>
      <div class="field">
        <label for={`${id}-kind`}>{t('admin.settings.providers.kind')}</label>
        <select id={`${id}-kind`} value={row.kind} onChange={(event) => props.onChange({ kind: event.currentTarget.value as ProviderKind })}>
          {KINDS.map((kind) => (
            <option key={kind.value} value={kind.value}>
              {kind.label}
            </option>
          ))}
        </select>
      </div>
      <Field
        label={t('admin.settings.providers.name')}
        hint={t('admin.settings.providers.nameHint')}
        spellcheck={false}
        value={row.instanceName}
        onValue={(instanceName) => props.onChange({ instanceName })}
      />
      <Field label={t('admin.settings.providers.clientId')} spellcheck={false} autocomplete="off" value={row.clientId} onValue={(clientId) => props.onChange({ clientId })} />
      <SecretField label={t('admin.settings.providers.clientSecret')} saved={row.secretSaved} value={row.clientSecret} onValue={(clientSecret) => props.onChange({ clientSecret })} />
      {row.kind === 'oidc' && (
        <Field
          label={t('admin.settings.providers.issuer')}
          type="url"
          hint={t('admin.settings.providers.issuerHint', { example: 'https://accounts.google.com' })}
          spellcheck={false} value={row.issuer} onValue={(issuer) => props.onChange({ issuer })} />
      )}
      <Field
        label={t('admin.settings.providers.returnAddress')}
        type="url"
        hint={t('admin.settings.providers.returnHint', { address: `${location.origin}/oauth2/callback/${row.instanceName || t('admin.settings.providers.nameInAddress')}` })}
        spellcheck={false}
        value={row.redirectUrl}
        onValue={(redirectUrl) => props.onChange({ redirectUrl })}
      />
      <label class="check">
        <input type="checkbox" checked={row.enableSignup} onChange={(event) => props.onChange({ enableSignup: event.currentTarget.checked })} /> {t('admin.settings.providers.enableSignup')}
      </label>
      <label class="check">
        <input type="checkbox" checked={row.signupNeedReview} onChange={(event) => props.onChange({ signupNeedReview: event.currentTarget.checked })} /> {t('admin.settings.providers.needReview')}
      </label>
      <div>
        <button type="button" class="button-quiet" onClick={props.onRemove}>
          {t('admin.settings.providers.remove', { n: index + 1 })}
        </button>
      </div>
    </fieldset>
  );
}
