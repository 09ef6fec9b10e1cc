/**
 * One runtime setting as a form control: the input its rule calls for, its description, rule
 * and default as hint text, the error (the client's check or the server's issue) tied to it,
 * "Reset to default" when the value differs from the default, and a link to its history.
 */
import { useId } from 'preact/hooks';
import { shown } from '../format.js';
import { draftOf, inputKind, parseDraft, sameValue, type Draft, type Setting } from './setting-rules.js';

export function SettingField(props: { setting: Setting; draft: Draft; error: string | undefined; onDraft: (draft: Draft) => void }) {
  const { setting, draft, error } = props;
  const id = useId();
  const input = inputKind(setting);
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const described = error ? `${hintId} ${errorId}` : hintId;
  const parsed = parseDraft(setting, draft);
  const atDefault = parsed.ok && sameValue(parsed.value, setting.default);
  const common = { id, 'aria-describedby': described, 'aria-invalid': error ? true : undefined } as const;

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
          value={String(draft)}
          onInput={(event) => props.onDraft(event.currentTarget.value)}
        />
      );
      break;
    case 'enum':
      control = (
        <select {...common} value={String(draft)} onChange={(event) => props.onDraft(event.currentTarget.value)}>
          {input.options.map((option) => (
            <option key={option} value={option}>
              {option}
            </option>
          ))}
        </select>
      );
      break;
    case 'string':
      control = <input {...common} type="text" spellcheck={false} value={String(draft)} onInput={(event) => props.onDraft(event.currentTarget.value)} />;
      break;
    case 'json':
      control = (
        <textarea
          {...common}
          class="setting-json"
          rows={Math.min(12, Math.max(3, String(draft).split('\n').length))}
          spellcheck={false}
          value={String(draft)}
          onInput={(event) => props.onDraft(event.currentTarget.value)}
        />
      );
      break;
  }

  return (
    <div class={input.kind === 'boolean' ? 'field setting setting-boolean' : 'field setting'}>
      <div class="setting-label">
        {input.kind === 'boolean' && control}
        <label for={id}>
          <code>{setting.key}</code>
        </label>
      </div>
      <p class="field-hint" id={hintId}>
        {setting.description}. Accepts {setting.rule}. Default: {shown(setting.default)}.
        {setting.updatedBy && ` Last changed by ${setting.updatedBy}.`}
      </p>
      {input.kind !== 'boolean' && control}
      {error && (
        <p class="field-error" id={errorId}>
          {error}
        </p>
      )}
      <div class="setting-links">
        {!atDefault && (
          <button type="button" class="button-quiet" onClick={() => props.onDraft(draftOf(setting, setting.default))} aria-label={`Reset to default: ${setting.key}`}>
            Reset to default
          </button>
        )}
        <a href={`/admin/settings/${setting.key}`} aria-label={`History of ${setting.key}`}>
          History
        </a>
      </div>
    </div>
  );
}
