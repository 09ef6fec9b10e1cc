import type { InputHTMLAttributes } from 'preact';
import { useId } from 'preact/hooks';

interface InputProps {
  type?: 'text' | 'password' | 'email' | 'url' | 'search' | 'number' | 'tel';
  name?: string;
  autocomplete?: string;
  required?: boolean;
  minLength?: number;
  maxLength?: number;
  min?: number;
  max?: number;
  step?: number | 'any';
  pattern?: string;
  placeholder?: string;
  inputMode?: 'text' | 'numeric' | 'email' | 'url' | 'search' | 'tel' | 'decimal';
  disabled?: boolean;
  spellcheck?: boolean;
}

/**
 * A labelled input with its hint and error tied to it (aria-describedby), so the message a
 * server returns for this field is read with it.
 */
export function Field(props: InputProps & { label: string; value: string; onValue: (value: string) => void; hint?: string | undefined; error?: string | undefined }) {
  const { label, value, onValue, hint, error, ...input } = props;
  const id = useId();
  const described = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  // Preact types <input> as a union keyed by `type`; this component's `type` is itself a union.
  const attributes = { type: 'text', ...input } as unknown as InputHTMLAttributes<HTMLInputElement>;
  return (
    <div class="field">
      <label for={id}>{label}</label>
      {hint && (
        <p class="field-hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      <input {...attributes} id={id} value={value} onInput={(event) => onValue(event.currentTarget.value)} aria-invalid={error ? true : undefined} aria-describedby={described} />
      {error && (
        <p class="field-error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}

/** A submit button that says it is working and cannot be pressed twice. */
export function SubmitButton(props: { busy: boolean; children: string; class?: string }) {
  return (
    <button type="submit" class={props.class ?? 'button-primary'} disabled={props.busy} aria-busy={props.busy}>
      {props.busy ? `${props.children}…` : props.children}
    </button>
  );
}
