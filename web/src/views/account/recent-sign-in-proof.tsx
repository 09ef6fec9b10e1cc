import type { Schemas } from '../../api/types.js';
import { Field } from '../../ui/field.js';
import { useT } from '../../i18n/use-t.js';

/**
 * The recent-sign-in proof the server wants before the password changes or a new way in or a
 * second factor is added (accounts/recent-sign-in.ts): an account with a direct-transport
 * (argon2) password types it; any other account must have signed in within 10 minutes, which
 * the page can only say. `required`: the password change, which always wants it.
 */
export type PasswordKind = Schemas['CredentialsOverview']['password'];

export function RecentSignInProof(props: { kind: PasswordKind; value: string; onValue: (value: string) => void; error: string | undefined; required?: boolean }) {
  const t = useT();
  if (props.kind !== 'argon2') return <p class="muted">{t('account.proof.recent')}</p>;
  return (
    <Field
      label={t('account.proof.current')}
      type="password"
      autocomplete="current-password"
      required={props.required === true}
      maxLength={1024}
      value={props.value}
      onValue={props.onValue}
      error={props.error}
      {...(props.required ? {} : { hint: t('account.proof.hint') })}
    />
  );
}

/** The body fields that carry the proof: the password when there is one to send. */
export function proofFields(kind: PasswordKind, value: string): { currentPassword?: string } {
  return kind === 'argon2' && value !== '' ? { currentPassword: value } : {};
}
