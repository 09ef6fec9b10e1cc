import { Field } from '../../ui/field.js';
import { useT } from '../../i18n/use-t.js';

/** The shortest password the forms accept; the server has no rule of its own for OPAQUE records. */
export const MIN_PASSWORD_LENGTH = 8;

export interface NewPassword {
  password: string;
  repeat: string;
}

/** Why the two entries cannot be used yet (the fields say it in the page's language), or null when they can. */
export type NewPasswordProblem = 'tooShort' | 'mismatch' | null;

export function newPasswordProblem(value: NewPassword): NewPasswordProblem {
  if (value.password.length < MIN_PASSWORD_LENGTH) return 'tooShort';
  if (value.password !== value.repeat) return 'mismatch';
  return null;
}

/** A new password typed twice, so a typo does not lock the person out. */
export function NewPasswordFields(props: { value: NewPassword; onValue: (value: NewPassword) => void; label?: string; problem?: NewPasswordProblem | undefined; serverError?: string | undefined }) {
  const t = useT();
  const mismatch = props.problem === 'mismatch' ? t('auth.newPassword.mismatch') : undefined;
  const tooShort = props.problem === 'tooShort' ? t('auth.newPassword.tooShort', { min: MIN_PASSWORD_LENGTH }) : undefined;
  return (
    <>
      <Field
        label={props.label ?? t('auth.newPassword.password')}
        type="password"
        autocomplete="new-password"
        required
        minLength={MIN_PASSWORD_LENGTH}
        maxLength={1024}
        hint={t('auth.newPassword.hint', { min: MIN_PASSWORD_LENGTH })}
        value={props.value.password}
        onValue={(password) => props.onValue({ ...props.value, password })}
        error={tooShort ?? props.serverError}
      />
      <Field
        label={t('auth.newPassword.repeat')}
        type="password"
        autocomplete="new-password"
        required
        maxLength={1024}
        value={props.value.repeat}
        onValue={(repeat) => props.onValue({ ...props.value, repeat })}
        error={mismatch}
      />
    </>
  );
}
