import { Field } from '../../ui/field.js';

/** The shortest password the forms accept; the server has no rule of its own for OPAQUE records. */
export const MIN_PASSWORD_LENGTH = 8;

export interface NewPassword {
  password: string;
  repeat: string;
}

/** Why the two entries cannot be used yet, or null when they can. */
export function newPasswordProblem(value: NewPassword): string | null {
  if (value.password.length < MIN_PASSWORD_LENGTH) return `Use at least ${MIN_PASSWORD_LENGTH} characters.`;
  if (value.password !== value.repeat) return 'The two passwords differ.';
  return null;
}

/** A new password typed twice, so a typo does not lock the person out. */
export function NewPasswordFields(props: { value: NewPassword; onValue: (value: NewPassword) => void; label?: string; problem?: string | null | undefined; serverError?: string | undefined }) {
  const mismatch = props.problem === 'The two passwords differ.' ? props.problem : undefined;
  const tooShort = props.problem && !mismatch ? props.problem : undefined;
  return (
    <>
      <Field
        label={props.label ?? 'Password'}
        type="password"
        autocomplete="new-password"
        required
        minLength={MIN_PASSWORD_LENGTH}
        maxLength={1024}
        hint={`At least ${MIN_PASSWORD_LENGTH} characters. A few unrelated words make a strong password.`}
        value={props.value.password}
        onValue={(password) => props.onValue({ ...props.value, password })}
        error={tooShort ?? props.serverError}
      />
      <Field
        label="Repeat the password"
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
