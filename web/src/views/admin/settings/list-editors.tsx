/**
 * Editors for the list-shaped settings: permissions as checkboxes, a list of texts (site
 * addresses) and ICE servers as rows with add and remove. Each changes a draft
 * (setting-rules.ts); the setting's fieldset carries its label, hint and error.
 */
import { useId } from 'preact/hooks';
import { Field } from '../../../ui/field.js';
import { REDACTED, type IceRow } from './setting-rules.js';
import { useT } from '../../../i18n/use-t.js';

interface Choice {
  value: string;
  label: string;
}

/** One checkbox per choice the server offers (for guests only what a guest can ever have). */
export function PermissionChecks(props: { choices: Choice[]; value: string[]; onChange: (value: string[]) => void }) {
  return (
    <div class="permission-grid">
      {props.choices.map((choice) => (
        <label key={choice.value} class="check">
          <input
            type="checkbox"
            checked={props.value.includes(choice.value)}
            onChange={(event) => {
              const on = event.currentTarget.checked;
              props.onChange(on ? [...props.value, choice.value] : props.value.filter((entry) => entry !== choice.value));
            }}
          />{' '}
          {choice.label}
        </label>
      ))}
    </div>
  );
}

/**
 * Texts one per row, each with its own remove button, and a button to add a row. The row an
 * issue names (or every row, when it names none) is marked invalid and described by the error.
 */
export function TextListEditor(props: { itemLabel: string; value: string[]; onChange: (value: string[]) => void; invalid: { index: number | undefined; errorId: string } | undefined }) {
  const t = useT();
  const id = useId();
  // The setting's word for one entry starts a label ("Site address 1") and sits inside a sentence ("Add a site address").
  const item = props.itemLabel.toLowerCase();
  const set = (index: number, text: string) => props.onChange(props.value.map((entry, at) => (at === index ? text : entry)));
  const marked = (index: number) => props.invalid !== undefined && (props.invalid.index === undefined || props.invalid.index === index);
  return (
    <div class="setting-rows">
      {props.value.length === 0 && <p class="muted">{t('admin.settings.lists.noneYet')}</p>}
      {props.value.map((entry, index) => (
        <div class="setting-row" key={index}>
          <label for={`${id}-${index}`}>{t('admin.settings.entries.item', { item: props.itemLabel, n: index + 1 })}</label>
          <input
            id={`${id}-${index}`}
            type="text"
            spellcheck={false}
            value={entry}
            aria-invalid={marked(index) ? true : undefined}
            aria-describedby={marked(index) ? props.invalid?.errorId : undefined}
            onInput={(event) => set(index, event.currentTarget.value)}
          />
          <button type="button" class="button-quiet" onClick={() => props.onChange(props.value.filter((_, at) => at !== index))}>
            {t('admin.settings.lists.remove', { item, n: index + 1 })}
          </button>
        </div>
      ))}
      <div>
        <button type="button" onClick={() => props.onChange([...props.value, ''])}>
          {t('admin.settings.lists.add', { item })}
        </button>
      </div>
    </div>
  );
}

const NEW_SERVER: IceRow = { urls: '', username: '', credential: '', credentialSaved: false };

/** ICE servers as rows of addresses, username and credential. */
export function IceServersEditor(props: { value: IceRow[]; onChange: (value: IceRow[]) => void }) {
  const t = useT();
  const set = (index: number, change: Partial<IceRow>) => props.onChange(props.value.map((row, at) => (at === index ? { ...row, ...change } : row)));
  return (
    <div class="setting-rows">
      {props.value.length === 0 && <p class="muted">{t('admin.settings.ice.none')}</p>}
      {props.value.map((row, index) => (
        <fieldset class="setting-entry" key={index}>
          <legend>{t('admin.settings.entries.server', { n: index + 1 })}</legend>
          <Field
            label={t('admin.settings.ice.addresses')}
            hint={t('admin.settings.ice.addressesHint', { stun: 'stun:stun.example.com:3478', turn: 'turn:turn.example.com:3478' })}
            spellcheck={false}
            value={row.urls}
            onValue={(urls) => set(index, { urls })}
          />
          <Field label={t('admin.settings.ice.username')} hint={t('admin.settings.ice.usernameHint')} autocomplete="off" spellcheck={false} value={row.username} onValue={(username) => set(index, { username })} />
          <SecretField label={t('admin.settings.ice.credential')} saved={row.credentialSaved} value={row.credential} onValue={(credential) => set(index, { credential })} />
          <div>
            <button type="button" class="button-quiet" onClick={() => props.onChange(props.value.filter((_, at) => at !== index))}>
              {t('admin.settings.ice.remove', { n: index + 1 })}
            </button>
          </div>
        </fieldset>
      ))}
      <div>
        <button type="button" onClick={() => props.onChange([...props.value, { ...NEW_SERVER }])}>
          {t('admin.settings.ice.add')}
        </button>
      </div>
    </div>
  );
}

/**
 * A credential the listing hides: shown empty, and left empty it stays "[redacted]", which the
 * server reads as "keep the saved one" (settings/secret-fields.ts).
 */
export function SecretField(props: { label: string; saved: boolean; value: string; onValue: (value: string) => void }) {
  const t = useT();
  const hidden = props.saved && props.value === REDACTED;
  return (
    <Field
      label={props.label}
      type="password"
      autocomplete="new-password"
      hint={props.saved ? t('admin.settings.ice.secretSaved') : undefined}
      value={hidden ? '' : props.value}
      onValue={(value) => props.onValue(value === '' && props.saved ? REDACTED : value)}
    />
  );
}
