/**
 * One runtime setting as a form control: its human name as the label, what it does and what
 * it accepts in plain words with the key as secondary text, the field its input kind calls
 * for, the error (the client's check or the server's issue) tied to it, "Reset to default"
 * when the value differs from the default, and a link to its history.
 */
import { useId } from 'preact/hooks';
import type { TFunction } from 'i18next';
import { IceServersEditor, PermissionChecks, TextListEditor } from './list-editors.js';
import { OAuth2ProvidersEditor } from './oauth2-providers-editor.js';
import { Rich } from '../../../i18n/rich.js';
import { useT } from '../../../i18n/use-t.js';
import { choiceLabel, itemLabel, settingAccepts, settingDescription, settingLabel } from './setting-words.js';
import { draftOf, draftText, entryOf, inWords, parseDraft, problemInWords, sameSettingValue, type Draft, type IceRow, type ProviderRow, type Setting } from './setting-rules.js';

// A checkbox, a select or a set of checkboxes shows what it accepts by itself.
const SHOWS_ITS_CHOICES: ReadonlySet<string> = new Set(['boolean', 'choice', 'permissions']);

/** The default as the hint says it; a permission set next to its checkboxes by how much of it is ticked. */
function defaultInWords(setting: Setting, t: TFunction): string {
  const input = setting.input;
  if (input.kind === 'permissions' && Array.isArray(setting.default)) {
    if (setting.default.length === 0) return t('admin.settings.field.noneOfThese');
    if (setting.default.length === input.choices.length) return t('admin.settings.field.allOfThese');
  }
  return inWords(setting, setting.default);
}

export function SettingField(props: { setting: Setting; draft: Draft; error: string | undefined; onDraft: (draft: Draft) => void }) {
  const t = useT();
  const { setting, draft, error } = props;
  const id = useId();
  const input = setting.input;
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const described = error ? `${hintId} ${errorId}` : hintId;
  const parsed = parseDraft(setting, draft);
  const atDefault = parsed.ok && sameSettingValue(setting, parsed.value, setting.default);
  const label = settingLabel(setting);
  const common = { id, 'aria-describedby': described, 'aria-invalid': error ? true : undefined } as const;

  const hint = (
    <p class="field-hint" id={hintId}>
      {settingDescription(setting)} {!SHOWS_ITS_CHOICES.has(input.kind) && `${settingAccepts(setting)} `}
      {t('admin.settings.field.defaultIs', { value: defaultInWords(setting, t) })}
      {setting.updatedBy && ` ${t('admin.settings.field.lastChangedBy', { who: setting.updatedBy })}`}{' '}
      <span class="setting-key">
        <Rich k="admin.settings.field.key" parts={{ key: <code>{setting.key}</code> }} />
      </span>
    </p>
  );
  const errorLine = error && (
    <p class="field-error" id={errorId}>
      {problemInWords(setting, error)}
    </p>
  );
  const links = (
    <div class="setting-links">
      {!atDefault && (
        <button type="button" class="button-quiet" onClick={() => props.onDraft(draftOf(setting, setting.default))} aria-label={t('admin.settings.field.resetLabel', { setting: label })}>
          {t('admin.settings.field.reset')}
        </button>
      )}
      <a href={`/admin/settings/${setting.key}`} aria-label={t('admin.settings.field.historyLabel', { setting: label })}>
        {t('admin.settings.field.history')}
      </a>
    </div>
  );

  // Lists and permission sets are groups of fields: a fieldset names them all.
  let group;
  switch (input.kind) {
    case 'permissions':
      group = <PermissionChecks choices={input.choices.map((choice) => ({ value: choice.value, label: choiceLabel(setting, choice.value, choice.label) }))} value={draft as string[]} onChange={props.onDraft} />;
      break;
    case 'textList':
      group = <TextListEditor itemLabel={itemLabel(setting, input.itemLabel)} value={draft as string[]} onChange={props.onDraft} invalid={error ? { index: entryOf(error), errorId } : undefined} />;
      break;
    case 'iceServers':
      group = <IceServersEditor value={draft as IceRow[]} onChange={props.onDraft} />;
      break;
    case 'oauth2Providers':
      group = <OAuth2ProvidersEditor value={draft as ProviderRow[]} onChange={props.onDraft} />;
      break;
    default:
      // A one-value kind: its single control is below.
      break;
  }
  if (group) {
    return (
      <fieldset class={error ? 'setting setting-set setting-invalid' : 'setting setting-set'} aria-describedby={described}>
        <legend class="setting-label">{label}</legend>
        {hint}
        {group}
        {errorLine}
        {links}
      </fieldset>
    );
  }

  let control;
  switch (input.kind) {
    case 'boolean':
      control = <input {...common} type="checkbox" checked={draft === true} onChange={(event) => props.onDraft(event.currentTarget.checked)} />;
      break;
    case 'integer':
      control = (
        <input
          {...common}
          type="number"
          inputMode="numeric"
          step={1}
          min={input.min}
          max={input.max}
          required
          value={draftText(draft)}
          onInput={(event) => props.onDraft(event.currentTarget.value)}
        />
      );
      break;
    case 'choice':
      control = (
        <select {...common} value={draftText(draft)} onChange={(event) => props.onDraft(event.currentTarget.value)}>
          {input.options.map((option) => (
            <option key={option.value} value={option.value}>
              {choiceLabel(setting, option.value, option.label)}
            </option>
          ))}
        </select>
      );
      break;
    default:
      control = <input {...common} type="text" spellcheck={false} value={draftText(draft)} onInput={(event) => props.onDraft(event.currentTarget.value)} />;
  }

  return (
    <div class={input.kind === 'boolean' ? 'field setting setting-boolean' : 'field setting'}>
      <div class="setting-label">
        {input.kind === 'boolean' && control}
        <label for={id}>{label}</label>
      </div>
      {hint}
      {input.kind !== 'boolean' && control}
      {errorLine}
      {links}
    </div>
  );
}
