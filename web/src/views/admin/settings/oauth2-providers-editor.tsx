/**
 * OAuth2 sign-in providers as a group of fields each: kind, name, client ID and secret,
 * issuer (OpenID Connect only), return address and the sign-up switches.
 */
import { useId } from 'preact/hooks';
import { Field } from '../../../ui/field.js';
import { SecretField } from './list-editors.js';
import type { ProviderKind, ProviderRow } from './setting-rules.js';

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
  const set = (index: number, change: Partial<ProviderRow>) => props.onChange(props.value.map((row, at) => (at === index ? { ...row, ...change } : row)));
  return (
    <div class="setting-rows">
      {props.value.length === 0 && <p class="muted">None yet: people sign in with a password or a passkey only.</p>}
      {props.value.map((row, index) => (
        <ProviderFields key={index} index={index} row={row} onChange={(change) => set(index, change)} onRemove={() => props.onChange(props.value.filter((_, at) => at !== index))} />
      ))}
      <div>
        <button type="button" onClick={() => props.onChange([...props.value, { ...NEW_PROVIDER }])}>
          Add a provider
        </button>
      </div>
    </div>
  );
}

function ProviderFields(props: { index: number; row: ProviderRow; onChange: (change: Partial<ProviderRow>) => void; onRemove: () => void }) {
  const { row, index } = props;
  const id = useId();
  const title = `Provider ${index + 1}`;
  return (
    <fieldset class="setting-entry">
      <legend>{row.instanceName ? `${title}: ${row.instanceName}` : title}</legend>
      <div class="field">
        <label for={`${id}-kind`}>Kind</label>
        <select id={`${id}-kind`} value={row.kind} onChange={(event) => props.onChange({ kind: event.currentTarget.value as ProviderKind })}>
          {KINDS.map((kind) => (
            <option key={kind.value} value={kind.value}>
              {kind.label}
            </option>
          ))}
        </select>
      </div>
      <Field
        label="Name"
        hint="Letters, digits, _ and - only; it is part of the sign-in address, so changing it breaks existing sign-ins."
        spellcheck={false}
        value={row.instanceName}
        onValue={(instanceName) => props.onChange({ instanceName })}
      />
      <Field label="Client ID" spellcheck={false} autocomplete="off" value={row.clientId} onValue={(clientId) => props.onChange({ clientId })} />
      <SecretField label="Client secret" saved={row.secretSaved} value={row.clientSecret} onValue={(clientSecret) => props.onChange({ clientSecret })} />
      {row.kind === 'oidc' && (
        <Field label="Issuer" type="url" hint="The provider’s address, for example https://accounts.google.com." spellcheck={false} value={row.issuer} onValue={(issuer) => props.onChange({ issuer })} />
      )}
      <Field
        label="Return address"
        type="url"
        hint={`Register the same address with the provider: ${location.origin}/oauth2/callback/${row.instanceName || 'name'}.`}
        spellcheck={false}
        value={row.redirectUrl}
        onValue={(redirectUrl) => props.onChange({ redirectUrl })}
      />
      <label class="check">
        <input type="checkbox" checked={row.enableSignup} onChange={(event) => props.onChange({ enableSignup: event.currentTarget.checked })} /> New people can sign up with it
      </label>
      <label class="check">
        <input type="checkbox" checked={row.signupNeedReview} onChange={(event) => props.onChange({ signupNeedReview: event.currentTarget.checked })} /> Sign-ups with it need approval
      </label>
      <div>
        <button type="button" class="button-quiet" onClick={props.onRemove}>
          {`Remove provider ${index + 1}`}
        </button>
      </div>
    </fieldset>
  );
}
