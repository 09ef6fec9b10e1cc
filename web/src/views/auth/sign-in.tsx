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
import { useEmailLink, type EmailLinkKind } from '../../auth/email-link.js';
import { GuestForm } from './guest-form.js';
import { withNext } from '../../auth/next-path.js';
import { OAuth2Buttons } from './oauth2-buttons.js';
import { PasskeySignIn } from './passkey-sign-in.js';
import { PasswordReset } from './password-reset.js';
import { PasswordSignIn } from './password-sign-in.js';
import { SecondFactor } from './second-factor.js';
import './auth.css';

export function SignIn(props: { emailLink?: EmailLinkKind }) {
  const flow = useAuthFlow();
  const { info, error, retry } = usePublicInfo();
  const link = useEmailLink(props.emailLink);
  const [resetting, setResetting] = useState(link !== null);
  const [resetDone, setResetDone] = useState(false);

  if (flow.step.kind === 'second_factor') {
    return (
      <Page title="Sign in">
        <SecondFactor challenge={flow.step.challenge} onSignedIn={flow.finish} onCancel={flow.restart} />
      </Page>
    );
  }
  if (!info) {
    return (
      <Page title="Sign in">
        {error ? (
          <>
            <ErrorNotice error={error} />
            <button type="button" onClick={retry}>
              Try again
            </button>
          </>
        ) : (
          <p role="status">Loading the sign-in methods…</p>
        )}
      </Page>
    );
  }
  const passwords = info.signIn.opaque || info.signIn.password;
  const linkProblem = link?.problem && (
    <p class="notice notice-error" role="alert">
      {link.problem} Open the link in the email again, or ask for a new code below.
    </p>
  );
  if (resetting && info.signIn.email) {
    return (
      <Page title="Sign in">
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
    <Page title="Sign in">
      {currentUser.value && (
        <p class="notice" role="status">
          You are signed in as {currentUser.value.displayName}. Signing in again switches to the account you sign in with.
        </p>
      )}
      {link && resetting && !info.signIn.email && (
        <p class="notice notice-error" role="alert">
          This server cannot reset passwords by email right now, so the link cannot be used.
        </p>
      )}
      {resetDone && (
        <p class="notice" role="status">
          Your new password is set and every session was signed out. Sign in with it.
        </p>
      )}
      <div class="auth-grid">
        {passwords && (
          <section class="auth-panel" aria-labelledby="signin-password">
            <h2 id="signin-password">With your password</h2>
            <PasswordSignIn opaque={info.signIn.opaque} direct={info.signIn.password} onAnswer={flow.finish} onForgot={info.signIn.email ? () => setResetting(true) : undefined} />
          </section>
        )}
        {(info.signIn.webauthn || info.signIn.oauth2.length > 0) && (
          <section class="auth-panel" aria-labelledby="signin-other">
            <h2 id="signin-other">Other ways</h2>
            {info.signIn.webauthn && <PasskeySignIn onAnswer={flow.finish} />}
            <OAuth2Buttons instances={info.signIn.oauth2} verb="Sign in" next={flow.next} />
          </section>
        )}
        {info.guests && (
          <section class="auth-panel" aria-labelledby="signin-guest">
            <h2 id="signin-guest">Without an account</h2>
            <GuestForm onAnswer={flow.finish} />
          </section>
        )}
      </div>
      <p>
        No account yet? <a href={withNext('/signup', flow.next)}>Sign up</a>
      </p>
    </Page>
  );
}
