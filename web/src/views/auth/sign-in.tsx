/**
 * /signin: every sign-in method the server has on (`GET /api/public/info`), then the second
 * factor when the account has one, then back to `?next=`. Also /auth/reset, the link in the
 * password reset email (`emailLink`): the reset form, with the link's address and code.
 */
import { useState } from 'preact/hooks';
import { currentUser } from '../../state/session.js';
import { usePublicInfo } from '../../state/public-info.js';
import { ErrorNotice } from '../../ui/error-notice.js';
import { Page } from '../../ui/page.js';
import { useAuthFlow } from '../../auth/auth-flow.js';
import { linkProblem as linkProblemOf, useEmailLink, type EmailLinkKind } from '../../auth/email-link.js';
import { GuestForm } from './guest-form.js';
import { withNext } from '../../auth/next-path.js';
import { OAuth2Buttons } from './oauth2-buttons.js';
import { PasskeySignIn } from './passkey-sign-in.js';
import { PasswordReset } from './password-reset.js';
import { PasswordSignIn } from './password-sign-in.js';
import { SecondFactor } from './second-factor.js';
import { Rich } from '../../i18n/rich.js';
import { useT } from '../../i18n/use-t.js';
import './auth.css';

export function SignIn(props: { emailLink?: EmailLinkKind }) {
  const t = useT();
  const flow = useAuthFlow();
  const { info, error, retry } = usePublicInfo();
  const link = useEmailLink(props.emailLink);
  const [resetting, setResetting] = useState(link !== null);
  const [resetDone, setResetDone] = useState(false);

  if (flow.step.kind === 'second_factor') {
    return (
      <Page title={t('auth.signIn.title')}>
        <SecondFactor challenge={flow.step.challenge} onSignedIn={flow.finish} onCancel={flow.restart} />
      </Page>
    );
  }
  if (!info) {
    return (
      <Page title={t('auth.signIn.title')}>
        {error ? (
          <>
            <ErrorNotice error={error} />
            <button type="button" onClick={retry}>
              {t('auth.signIn.tryAgain')}
            </button>
          </>
        ) : (
          <p role="status">{t('auth.signIn.loading')}</p>
        )}
      </Page>
    );
  }
  const passwords = info.signIn.opaque || info.signIn.password;
  const problem = linkProblemOf(link);
  const linkProblem = problem && (
    <p class="notice notice-error" role="alert">
      {t('auth.signIn.linkProblem', { problem })}
    </p>
  );
  if (resetting && info.signIn.email) {
    return (
      <Page title={t('auth.signIn.title')}>
        {linkProblem}
        <PasswordReset
          initial={link ?? undefined}
          opaque={info.signIn.opaque}
          onDone={() => {
            setResetting(false);
            setResetDone(true);
          }}
          onCancel={() => setResetting(false)}
        />
      </Page>
    );
  }
  return (
    <Page title={t('auth.signIn.title')}>
      {currentUser.value && (
        <p class="notice" role="status">
          {t('auth.signIn.signedInAs', { name: currentUser.value.displayName })}
        </p>
      )}
      {link && resetting && !info.signIn.email && (
        <p class="notice notice-error" role="alert">
          {t('auth.signIn.resetUnavailable')}
        </p>
      )}
      {resetDone && (
        <p class="notice" role="status">
          {t('auth.signIn.resetDone')}
        </p>
      )}
      <div class="auth-grid">
        {passwords && (
          <section class="auth-panel" aria-labelledby="signin-password">
            <h2 id="signin-password">{t('auth.signIn.withPassword')}</h2>
            <PasswordSignIn opaque={info.signIn.opaque} direct={info.signIn.password} onAnswer={flow.finish} onForgot={info.signIn.email ? () => setResetting(true) : undefined} />
          </section>
        )}
        {(info.signIn.webauthn || info.signIn.oauth2.length > 0) && (
          <section class="auth-panel" aria-labelledby="signin-other">
            <h2 id="signin-other">{t('auth.signIn.otherWays')}</h2>
            {info.signIn.webauthn && <PasskeySignIn onAnswer={flow.finish} />}
            <OAuth2Buttons instances={info.signIn.oauth2} mode="signIn" next={flow.next} />
          </section>
        )}
        {info.guests && (
          <section class="auth-panel" aria-labelledby="signin-guest">
            <h2 id="signin-guest">{t('auth.signIn.withoutAccount')}</h2>
            <GuestForm onAnswer={flow.finish} />
          </section>
        )}
      </div>
      <p>
        <Rich k="auth.signIn.noAccount" parts={{ signUp: <a href={withNext('/signup', flow.next)}>{t('auth.signIn.signUpLink')}</a> }} />
      </p>
    </Page>
  );
}
