/**
 * /signup: the signup methods the server has on, each in its own section. A signup under
 * review shows that it waits for a decision; any other success signs in and returns to `?next=`.
 * Also /auth/confirm-email, the link in the signup email (`emailLink`): only the email section,
 * at the password step with the link's address and code.
 */
import { usePublicInfo } from '../../state/public-info.js';
import { ErrorNotice } from '../../ui/error-notice.js';
import { Page } from '../../ui/page.js';
import { useAuthFlow } from '../../auth/auth-flow.js';
import { EmailSignUp } from './email-sign-up.js';
import { linkProblem, useEmailLink, type EmailLinkKind } from '../../auth/email-link.js';
import { withNext } from '../../auth/next-path.js';
import { OAuth2Buttons } from './oauth2-buttons.js';
import { PasskeySignUp } from './passkey-sign-up.js';
import { PasswordSignUp } from './password-sign-up.js';
import { PendingReview } from './pending-review.js';
import { SecondFactor } from './second-factor.js';
import { Rich } from '../../i18n/rich.js';
import { useT } from '../../i18n/use-t.js';
import './auth.css';

export function SignUp(props: { emailLink?: EmailLinkKind }) {
  const t = useT();
  const flow = useAuthFlow();
  const { info, error, retry } = usePublicInfo();
  const link = useEmailLink(props.emailLink);

  if (flow.step.kind === 'pending_review') {
    return (
      <Page title={t('auth.signUp.title')}>
        <PendingReview reviewId={flow.step.reviewId} />
      </Page>
    );
  }
  if (flow.step.kind === 'second_factor') {
    return (
      <Page title={t('auth.signUp.title')}>
        <SecondFactor challenge={flow.step.challenge} onSignedIn={flow.finish} onCancel={flow.restart} />
      </Page>
    );
  }
  if (!info) {
    return (
      <Page title={t('auth.signUp.title')}>
        {error ? (
          <>
            <ErrorNotice error={error} />
            <button type="button" onClick={retry}>
              {t('auth.signUp.tryAgain')}
            </button>
          </>
        ) : (
          <p role="status">{t('auth.signUp.loading')}</p>
        )}
      </Page>
    );
  }
  const { signup } = info;
  const password = signup.password.enabled && (info.signIn.opaque || info.signIn.password);
  const passkey = signup.webauthn.enabled;
  const oauth2 = signup.oauth2.filter((instance) => instance.enabled);
  const none = !password && !passkey && !signup.email.enabled && oauth2.length === 0;
  // A working link shows only its own step; the other methods would only be in the way.
  const problem = linkProblem(link);
  const linkOnly = Boolean(link?.code) && signup.email.enabled;
  return (
    <Page title={t('auth.signUp.title')}>
      {problem && (
        <p class="notice notice-error" role="alert">
          {t('auth.signUp.linkProblem', { problem })}
        </p>
      )}
      {link && !signup.email.enabled && (
        <p class="notice notice-error" role="alert">
          {t('auth.signUp.emailOff')}
        </p>
      )}
      {none && (
        <p class="notice" role="status">
          {t(info.guests ? 'auth.signUp.closedGuests' : 'auth.signUp.closed')}
        </p>
      )}
      <div class="auth-grid">
        {password && !linkOnly && (
          <section class="auth-panel" aria-labelledby="signup-password">
            <h2 id="signup-password">{t('auth.signUp.withPassword')}</h2>
            {signup.password.needsReview && <p class="muted">{t('auth.signUp.reviewHint')}</p>}
            <PasswordSignUp opaque={info.signIn.opaque} onAnswer={flow.finish} />
          </section>
        )}
        {passkey && !linkOnly && (
          <section class="auth-panel" aria-labelledby="signup-passkey">
            <h2 id="signup-passkey">{t('auth.signUp.withPasskey')}</h2>
            <p class="muted">{t('auth.signUp.passkeyExplained')}</p>
            {signup.webauthn.needsReview && <p class="muted">{t('auth.signUp.reviewHint')}</p>}
            <PasskeySignUp onAnswer={flow.finish} />
          </section>
        )}
        {signup.email.enabled && (
          <section class="auth-panel" aria-labelledby="signup-email">
            <h2 id="signup-email">{t('auth.signUp.withEmail')}</h2>
            {signup.email.needsReview && <p class="muted">{t('auth.signUp.reviewHint')}</p>}
            <EmailSignUp opaque={info.signIn.opaque} onAnswer={flow.finish} initial={link ?? undefined} />
          </section>
        )}
        {oauth2.length > 0 && !linkOnly && (
          <section class="auth-panel" aria-labelledby="signup-oauth2">
            <h2 id="signup-oauth2">{t('auth.signUp.withService')}</h2>
            {oauth2.some((instance) => instance.needsReview) && <p class="muted">{t('auth.signUp.reviewHint')}</p>}
            <OAuth2Buttons instances={oauth2.map((instance) => instance.instanceName)} mode="signUp" next={flow.next} />
          </section>
        )}
      </div>
      <p>
        <Rich k="auth.signUp.haveAccount" parts={{ signIn: <a href={withNext('/signin', flow.next)}>{t('auth.signUp.signInLink')}</a> }} />
      </p>
    </Page>
  );
}
